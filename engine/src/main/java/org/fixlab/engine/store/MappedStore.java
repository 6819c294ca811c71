package org.fixlab.engine.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store in one memory-mapped file, {@code <sessionKey>.mapped}: a message is stored with a memory
 * copy and no system call, so it survives a process crash as soon as storeSent returns. The sequence
 * numbers are written once a duty cycle, before the transport writes to the socket, as the file
 * store's are ({@link PersistentStore#writePending}).
 *
 * <pre>
 *   0   64 bytes   {@link SequenceNumberSlots}, mapped on their own
 *   64  ...        {@link RecordDescriptor} records, then zeros to the end of the file
 * </pre>
 *
 * <p>Records are written through a <em>window</em>: a mapping of {@link StoreOptions#mappedChunkBytes()}
 * (at most 1 MiB for the first one after opening, see {@link #FIRST_WINDOW_BYTES}).
 * A record that does not fit in what is left of it moves the window on, so the file has no size limit
 * while each mapping stays under Java's 2 GiB. Records behind the window (replayed for a ResendRequest,
 * or found on opening) are read with positional reads through {@link FileRecordReader}: the same page
 * cache, no mapping kept for them.
 *
 * <p>The <em>next window</em> is made ready before it is needed, a step at a time: mapped from a little
 * before the current window's end (so a record that does not fit at the end starts where the data
 * ended, inside it), and its new pages readied 64 KiB at a time, so that the kernel allocates them then
 * and not in {@code storeSent}. A step is taken on a duty cycle that stored nothing (its answers are not
 * waiting on it), and by {@code storeSent} only when the next window falls behind the current one's
 * filling (a stream with no idle cycle). Moving on is then a swap of two mappings; the old one is unmapped
 * on a later step. Readying a whole window at once, when the records reached its end, took 20 to 90 ms
 * on a 2-core VM for 64 MiB: a stall every 64 MiB of sent messages.
 *
 * <p>Recovery is {@link FileStore}'s: opening scans the records, cuts off the first one that does
 * not validate and everything after it (a torn write, or pages a power loss never wrote), and moves
 * the next sender seqNum past the highest stored one.
 *
 * <p>Steady state is garbage-free. Windows are mapped by address ({@link JdkMmap}, {@link MappedRegion}) where the
 * JVM opens {@code java.base/sun.nio.ch}; elsewhere each window is a {@code FileChannel.map}, whose objects (272 bytes
 * on Java 17) are the one allocation a window, which is why a chunk is large. The price of a large chunk is the step
 * that unmaps a full one: about 3 ms for 64 MiB on a 2-core VM (0.5 ms for 8 MiB), on a duty cycle that had nothing
 * to do. Not thread-safe.
 */
public final class MappedStore extends PersistentStore
{
    public static final String FILE_SUFFIX = ".mapped";

    static final int RECORDS_OFFSET = SequenceNumberSlots.LENGTH;

    private static final Logger LOGGER = LoggerFactory.getLogger(MappedStore.class);
    /** Whether a store has said it cannot map by address: once a process. */
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();
    private static final int MAX_MAPPING_BYTES = Integer.MAX_VALUE;
    private static final int PAGE_BYTES = 4096;
    /**
     * What one step taken on an idle duty cycle readies of the next window: written as zeros with one system call,
     * then touched. The kernel gives a written range pages of the write's size; a page fault in a hole of the file
     * may allocate a 2 MiB folio and compact memory for it (0.3 ms, and at times 2 to 18 ms, on a 6.18 kernel).
     * Readying 64 MiB cost 18-21 ms in steps of 64 KiB, 23-28 ms touching page by page (25 steps over 0.1 ms, up to
     * 2.9 ms), 90 ms in 4 KiB writes. Small, because a message that arrives during the step waits for it (27 us).
     */
    private static final int IDLE_STEP_BYTES = 64 * 1024;
    /**
     * What one step taken by storeSent readies, when no idle duty cycle has (a stream), and the largest write of zeros
     * readying a whole window makes. Larger writes make larger page-cache folios, and touching a page of one maps more
     * of it at a time: storing 8 streams of 1,000,000 200-byte messages took 208,000 page faults with 64 KiB steps
     * and 96,000 with 256 KiB ones, and a stream's steps cost 118 ns a message (4,358 steps of 27 us) against 75
     * (1,146 of 65 us). The stream's messages wait for its steps either way; 1 MiB steps gained little more in
     * StoreCostBenchmark (155-181 ns a storeSent against 147-180) and hold the stream four times as long each.
     */
    private static final int STREAM_STEP_BYTES = 256 * 1024;
    /** The zeros every mapped store writes to ready its pages; nothing writes into it (each store reads a view). */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(STREAM_STEP_BYTES);
    /** How far before the current window's end the next one starts, at most: a record up to this long that does not fit at the end fits there. */
    private static final int MAX_OVERLAP_BYTES = 64 * 1024;
    /**
     * The window a store maps when it opens, when its chunk is larger: small, so that the first move on to a next
     * window comes a few thousand messages into the session, while the JIT still profiles storeSent and the duty
     * cycle. Taken for the first time 64 MiB in, the move's branches sent the compiled send path back to the
     * interpreter there (uncommon traps, seen with -XX:+LogCompilation): sends stalled for 4-11 ms, once per
     * process, in the middle of a session.
     */
    private static final int FIRST_WINDOW_BYTES = 1024 * 1024;

    private final Path file;
    private final int chunkBytes;
    private final int overlapBytes;
    private final ReopeningFileChannel channel;
    private final FileRecordReader reader;
    private final UnsafeBuffer slots = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer window = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer next = new UnsafeBuffer(0, 0);
    /**
     * What {@code readyPages} writes, its position and limit this store's own: a read-only view of {@link #ZEROS}, so
     * that an acceptor's many sessions do not each hold 256 KiB of zeros.
     */
    private final ByteBuffer zeros = ZEROS.asReadOnlyBuffer();
    private final MappedRegion slotsRegion;
    /** The window's mapping, which {@link #window} views. */
    private MappedRegion windowRegion;
    /** The window to move on to, which {@link #next} views: not mapped until a step maps it. */
    private MappedRegion nextRegion;
    /** The window moved away from, unmapped by the next step. */
    private MappedRegion retiredRegion;
    /** The file position of the window's first byte. */
    private long windowStart;
    private long nextStart;
    /** The next window's offset up to which its pages are readied (written as zeros and touched). */
    private int nextReadyUpTo;
    /**
     * How far the current window fills (an offset in it) before {@code storeSent} takes a step itself: the next
     * window is behind (no idle duty cycle prepared it, as in a stream). MAX_VALUE once it is ready.
     */
    private int stepWhenFilledTo;
    /**
     * A step failed (a full disk, a file size limit): no more steps until a window is mapped at the end of the data
     * (the move on that finds no next window ready does that, and its failure reaches storeSent's caller before any
     * record is written). So a full disk surfaces once from the duty cycle, not on every idle cycle after it.
     */
    private boolean stepFailed;
    /** Moves on that could not take the next window (a record too large for it) and mapped and readied one there and then. */
    private long unpreparedMoves;
    /** Mappings made: the slots, then every window. */
    private long mappingsMade;
    private long dataEnd = RECORDS_OFFSET;
    private long unforcedFrom = RECORDS_OFFSET;
    /** The buffer of the record last loaded: the window, or the reader's for a record behind it. */
    private DirectBuffer loaded = window;

    private MappedStore(final Path file, final StoreOptions options)
    {
        super("MappedStore " + file, options);
        if (options.mappedChunkBytes() < PAGE_BYTES)
        {
            throw new IllegalArgumentException("mapped chunk must be at least " + PAGE_BYTES + " bytes, got " +
                options.mappedChunkBytes());
        }
        this.file = file;
        chunkBytes = options.mappedChunkBytes();
        overlapBytes = Math.min(MAX_OVERLAP_BYTES, chunkBytes / 4);
        channel = new ReopeningFileChannel(file);
        reader = new FileRecordReader(channel, crc);
        final boolean byAddress = options.mapByAddress() && null == JdkMmap.UNAVAILABLE;
        if (options.mapByAddress() && !byAddress && !FALLBACK_LOGGED.getAndSet(true))
        {
            LOGGER.info("mapped stores map each window with FileChannel.map, about 270 bytes of garbage a window " +
                "({} bytes of messages), as the JVM does not let them map by address: {}. Run it with " +
                "--add-opens java.base/sun.nio.ch=ALL-UNNAMED for none", chunkBytes, JdkMmap.UNAVAILABLE);
        }
        slotsRegion = new MappedRegion(channel, byAddress);
        windowRegion = new MappedRegion(channel, byAddress);
        nextRegion = new MappedRegion(channel, byAddress);
        retiredRegion = new MappedRegion(channel, byAddress);
    }

    /** Opens, or creates, the session's file in {@code dir} and recovers its content. */
    public static MappedStore open(final Path dir, final String sessionKey, final StoreOptions options)
    {
        return recovered(new MappedStore(StoreFiles.resolve(dir, sessionKey, FILE_SUFFIX), options));
    }

    @Override
    public void storeSent(final int seqNum, final DirectBuffer message, final int offset, final int length)
    {
        checkOpen();
        StoreChecks.checkMessage(seqNum, length, MAX_MAPPING_BYTES - RecordDescriptor.HEADER_LENGTH, name);
        final int recordLength = RecordDescriptor.recordLength(length);
        if (dataEnd + recordLength > windowStart + window.capacity())
        {
            slideWindow(recordLength);
        }
        final int at = (int)(dataEnd - windowStart);
        RecordDescriptor.write(window, at, seqNum, message, offset, length, crc);
        indexSent(seqNum, dataEnd);
        if (sync.onWrite())
        {
            windowRegion.force(at, recordLength);
            sync.onForced(0);
            forced();
        }
        dataEnd += recordLength;
        if (at + recordLength >= stepWhenFilledTo)
        {
            // the next window is behind this one's filling: no idle duty cycle has prepared it (a stream)
            try
            {
                prepareStep(STREAM_STEP_BYTES);
            }
            catch (final UncheckedIOException ex)
            {
                // the record is stored and stays so; the move on reports the failure if it lasts
                stopSteps();
            }
        }
    }

    /**
     * Cuts the records off the file (durably), then writes 1 and 1 as sequence numbers: the order
     * {@link FileStore#reset} explains. The file shrinks back to a first window.
     */
    @Override
    public void reset()
    {
        checkOpen();
        releaseWindows();
        resize(RECORDS_OFFSET, true);
        reader.invalidate();
        index.clear();
        dataEnd = RECORDS_OFFSET;
        unforcedFrom = RECORDS_OFFSET;
        mapWindow(Math.min(chunkBytes, FIRST_WINDOW_BYTES));
        seqNums.nextSender(1);
        seqNums.nextTarget(1);
        writeAndForceSeqNums();
    }

    @Override
    void recover()
    {
        map(slotsRegion, 0, RECORDS_OFFSET, slots);
        seqNums.load(slots, 0, crc, file.toString());

        dataEnd = indexRecords(reader, RECORDS_OFFSET, channel.size());
        unforcedFrom = dataEnd;

        // Whatever follows the last good record goes: a torn record, or stale bytes a later shorter
        // record would leave behind to be mistaken for data after the next crash. Cutting the file
        // there and growing it again has the OS zero it, without writing the zeros ourselves.
        resize(dataEnd, sync.policy() != SyncPolicy.NONE);
        reader.invalidate();
        mapWindow(Math.min(chunkBytes, FIRST_WINDOW_BYTES));

        advancePastStoredMessages();
    }

    /**
     * Moves the window on to the next one, if a step has mapped it and the record fits there where the data ends;
     * else maps and readies a window at the end of the data now. What the old window holds and a sync policy still
     * owes is forced first, so that {@link #forceAll} only ever has the current window to force.
     */
    private void slideWindow(final int recordLength)
    {
        if (sync.policy() != SyncPolicy.NONE && unforcedFrom < dataEnd)
        {
            windowRegion.force((int)(unforcedFrom - windowStart), (int)(dataEnd - unforcedFrom));
            unforcedFrom = dataEnd;
            forced();
        }
        // the reader may hold bytes it read from the old window while records were still being added to it
        reader.invalidate();
        if (nextRegion.isMapped() && !stepFailed && dataEnd >= nextStart && dataEnd + recordLength <= nextStart + next.capacity())
        {
            // the three regions go round: the next becomes the window, the window the retired one, and the retired
            // one, unmapped, the next
            retiredRegion.unmap();
            final MappedRegion free = retiredRegion;
            retiredRegion = windowRegion;
            windowRegion = nextRegion;
            nextRegion = free;
            windowRegion.wrap(window);
            windowStart = nextStart;
            next.wrap(0, 0);
            // the steps can wait while an eighth of the window fills: idle duty cycles usually take them first
            stepWhenFilledTo = (int)Math.min(window.capacity(), dataEnd - windowStart + (window.capacity() >> 3));
            return;
        }
        unpreparedMoves++;
        releaseWindows();
        final long length = Math.max(chunkBytes, (long)recordLength + PAGE_BYTES);
        mapWindow((int)Math.min(length, MAX_MAPPING_BYTES));
    }

    /** Maps {@code length} bytes from the end of the data, extending the file with zeros, and readies its pages now. */
    private void mapWindow(final int length)
    {
        windowStart = dataEnd;
        map(windowRegion, windowStart, length, window);
        readyPages(window, windowStart, 0, length);
        stepWhenFilledTo = length >> 3;
        stepFailed = false;
    }

    /**
     * One step of readying what comes after the current window, cheapest first: unmap the window moved away from,
     * map the next one, or ready {@code stepBytes} of it. Nothing once the next window is ready.
     */
    private void prepareStep(final int stepBytes)
    {
        if (retiredRegion.isMapped())
        {
            retiredRegion.unmap();
        }
        else if (!nextRegion.isMapped())
        {
            final long windowEnd = windowStart + window.capacity();
            nextStart = windowEnd - overlapBytes;
            map(nextRegion, nextStart, chunkBytes, next);
            // the pages up to the current window's end are the current window's, where records are still written
            nextReadyUpTo = (int)(firstPageAtOrAfter(windowEnd) - nextStart);
            stepWhenFilledTo = Math.min(stepWhenFilledTo, fillMatching(nextReadyUpTo));
        }
        else if (nextReadyUpTo < next.capacity())
        {
            final int to = (int)Math.min(next.capacity(), (long)nextReadyUpTo + stepBytes);
            readyPages(next, nextStart, nextReadyUpTo, to);
            nextReadyUpTo = to;
            // storeSent steps while the current window fills faster than this one is readied
            stepWhenFilledTo = nextReadyUpTo < next.capacity() ? fillMatching(nextReadyUpTo) : Integer.MAX_VALUE;
        }
    }

    /** On a duty cycle that stored nothing, one step of readying the next window. */
    @Override
    void prepareAhead()
    {
        if (windowRegion.isMapped() && !stepFailed && !nextWindowReady())
        {
            try
            {
                prepareStep(IDLE_STEP_BYTES);
            }
            catch (final UncheckedIOException ex)
            {
                stopSteps();
                throw ex;
            }
        }
    }

    private void stopSteps()
    {
        stepFailed = true;
        stepWhenFilledTo = Integer.MAX_VALUE;
    }

    /**
     * Makes the whole pages of {@code buffer}, mapped from file position {@code start}, between its offsets
     * {@code from} and {@code to} resident and writable: zeros written in pieces of up to {@link #STREAM_STEP_BYTES},
     * then each page touched. Only for bytes beyond the data, which hold zeros already: nothing on disk changes.
     */
    private void readyPages(final UnsafeBuffer buffer, final long start, final int from, final int to)
    {
        final long first = firstPageAtOrAfter(start + from);
        for (long piece = first; piece < start + to; piece += STREAM_STEP_BYTES)
        {
            zeros.clear().limit((int)Math.min(STREAM_STEP_BYTES, start + to - piece));
            channel.writeFully(zeros, piece);
        }
        for (long page = first; page < start + to; page += PAGE_BYTES)
        {
            buffer.putByte((int)(page - start), (byte)0);
        }
    }

    /**
     * The offset in the current window as far through it as {@code readied} is through the next one: the two differ
     * in size after the first window.
     */
    private int fillMatching(final int readied)
    {
        return (int)((long)readied * window.capacity() / next.capacity());
    }

    private static long firstPageAtOrAfter(final long position)
    {
        return (position + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
    }

    /** Moves on that could not use a prepared next window (for tests). */
    long unpreparedMoves()
    {
        return unpreparedMoves;
    }

    /** Mappings made since the store opened, the slots' included (for tests). */
    long mappingsMade()
    {
        return mappingsMade;
    }

    /** How far the next window's pages are readied, an offset in it (for tests). */
    int nextReadiedTo()
    {
        return nextReadyUpTo;
    }

    /** Whether the next window is mapped, all its own pages readied, and the last one unmapped. */
    boolean nextWindowReady()
    {
        return !retiredRegion.isMapped() && nextRegion.isMapped() && nextReadyUpTo >= next.capacity();
    }

    /** Unmaps the current window, the next and the retired one. */
    private void releaseWindows()
    {
        unmap(windowRegion, window);
        unmap(nextRegion, next);
        retiredRegion.unmap();
    }

    @Override
    int writeSeqNumSlot()
    {
        return seqNums.writeNext(slots, 0, crc);
    }

    @Override
    void forceSeqNumSlot(final int slotOffset)
    {
        slotsRegion.force(slotOffset, SequenceNumberSlots.SLOT_LENGTH);
    }

    @Override
    int loadRecord(final long position)
    {
        if (position >= windowStart)
        {
            loaded = window;
            final int at = (int)(position - windowStart);
            return RecordDescriptor.validLength(window, at, dataEnd - position, crc) == RecordDescriptor.INVALID ? -1 : at;
        }
        loaded = reader.window();
        return reader.load(position, dataEnd) == RecordDescriptor.INVALID ? -1 : reader.offsetOf(position);
    }

    @Override
    DirectBuffer recordBuffer()
    {
        return loaded;
    }

    @Override
    void forceAll()
    {
        if (slotsRegion.isMapped())
        {
            slotsRegion.force();
        }
        if (windowRegion.isMapped())
        {
            windowRegion.force((int)(unforcedFrom - windowStart), (int)(dataEnd - unforcedFrom));
            unforcedFrom = dataEnd;
        }
    }

    @Override
    void release()
    {
        try (channel)
        {
            releaseWindows();
            unmap(slotsRegion, slots);
        }
    }

    /**
     * Maps {@code length} bytes of the file from {@code position} with {@code region}, extending the file if it is
     * shorter, and points {@code view} at them.
     */
    private void map(final MappedRegion region, final long position, final int length, final UnsafeBuffer view)
    {
        try
        {
            region.map(position, length);
            region.wrap(view);
            mappingsMade++;
        }
        catch (final UncheckedIOException ex)
        {
            throw new UncheckedIOException("cannot map " + length + " bytes of " + file + " at " + position +
                ": check free disk space", ex.getCause());
        }
    }

    /** Unmaps {@code region}, emptying {@code view} on it first: nothing may reach its pages once they are gone. */
    private static void unmap(final MappedRegion region, final UnsafeBuffer view)
    {
        view.wrap(0, 0);
        region.unmap();
    }

    private void resize(final long length, final boolean force)
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(length);
            if (force)
            {
                raf.getChannel().force(false);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot resize " + file + " to " + length + " bytes", ex);
        }
    }
}
