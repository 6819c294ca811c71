package org.fixlab.engine.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A store in one memory-mapped file, {@code <sessionKey>.mapped}: a message is stored with a memory
 * copy and no system call, so it survives a process crash as soon as storeSent returns.
 *
 * <pre>
 *   0   64 bytes   {@link SequenceNumberSlots}, mapped on their own
 *   64  ...        {@link RecordDescriptor} records, then zeros to the end of the file
 * </pre>
 *
 * <p>Records are written through a <em>window</em>: a mapping of {@link StoreOptions#mappedChunkBytes()}
 * that starts where the data ended when it was mapped. A record that does not fit in what is left of it
 * moves the window on (unmap, extend the file, map the next chunk), so the file has no size limit
 * while each mapping stays under Java's 2 GiB, and a slide costs one mapping per chunk, not per message.
 * Records behind the window (replayed for a ResendRequest, or found on opening) are read with positional
 * reads through {@link FileRecordReader}: the same page cache, no mapping kept for them.
 *
 * <p>Recovery is {@link FileStore}'s: opening scans the records, cuts off the first one that does
 * not validate and everything after it (a torn write, or pages a power loss never wrote), and moves
 * the next sender seqNum past the highest stored one.
 *
 * <p>Steady state is garbage-free; a slide allocates one mapping and touches each new page once, so
 * that storeSent does not take the page faults. Not thread-safe.
 */
public final class MappedStore extends PersistentStore
{
    public static final String FILE_SUFFIX = ".mapped";

    static final int RECORDS_OFFSET = SequenceNumberSlots.LENGTH;

    private static final int MAX_MAPPING_BYTES = Integer.MAX_VALUE;
    private static final int PAGE_BYTES = 4096;

    private final Path file;
    private final int chunkBytes;
    private final ReopeningFileChannel channel;
    private final FileRecordReader reader;
    private final UnsafeBuffer slots = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer window = new UnsafeBuffer(0, 0);
    private MappedByteBuffer slotsMapping;
    private MappedByteBuffer windowMapping;
    /** The file position of the window's first byte. */
    private long windowStart;
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
        channel = new ReopeningFileChannel(file);
        reader = new FileRecordReader(channel, crc);
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
        index.put(seqNum, dataEnd);
        if (sync.onWrite())
        {
            windowMapping.force(at, recordLength);
            sync.onForced(0);
            forced();
        }
        dataEnd += recordLength;
    }

    /**
     * Cuts the records off the file (durably), then writes 1 and 1 as sequence numbers: the order
     * {@link FileStore#reset} explains. The file shrinks back to one chunk.
     */
    @Override
    public void reset()
    {
        checkOpen();
        unmap(windowMapping, window);
        windowMapping = null;
        resize(RECORDS_OFFSET, true);
        reader.invalidate();
        index.clear();
        dataEnd = RECORDS_OFFSET;
        unforcedFrom = RECORDS_OFFSET;
        mapWindow(chunkBytes);
        seqNums.nextSender(1);
        seqNums.nextTarget(1);
        writeSeqNums();
        slotsMapping.force();
        forced();
    }

    @Override
    void recover()
    {
        slotsMapping = map(0, RECORDS_OFFSET, slots);
        seqNums.load(slots, 0, crc, file.toString());

        dataEnd = indexRecords(reader, RECORDS_OFFSET, channel.size());
        unforcedFrom = dataEnd;

        // Whatever follows the last good record goes: a torn record, or stale bytes a later shorter
        // record would leave behind to be mistaken for data after the next crash. Cutting the file
        // there and growing it again has the OS zero it, without writing the zeros ourselves.
        resize(dataEnd, sync.policy() != SyncPolicy.NONE);
        reader.invalidate();
        mapWindow(chunkBytes);

        advancePastStoredMessages();
    }

    /**
     * Maps the next chunk from the end of the data on. What the old window holds and a sync policy still
     * owes is forced first, so that {@link #forceAll} only ever has the current window to force.
     */
    private void slideWindow(final int recordLength)
    {
        if (sync.policy() != SyncPolicy.NONE && unforcedFrom < dataEnd)
        {
            windowMapping.force((int)(unforcedFrom - windowStart), (int)(dataEnd - unforcedFrom));
            unforcedFrom = dataEnd;
            forced();
        }
        unmap(windowMapping, window);
        windowMapping = null;
        // the reader may hold bytes it read from the old window while records were still being added to it
        reader.invalidate();
        final long length = Math.max(chunkBytes, (long)recordLength + PAGE_BYTES);
        mapWindow((int)Math.min(length, MAX_MAPPING_BYTES));
    }

    /** Maps {@code length} bytes from the end of the data, extending the file with zeros, and pretouches them. */
    private void mapWindow(final int length)
    {
        windowStart = dataEnd;
        windowMapping = map(windowStart, length, window);
        // Takes the page faults of the window now rather than in storeSent. Writing a zero where the
        // file already holds zeros changes nothing on disk but makes each page resident and writable.
        final long firstPage = (windowStart + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
        for (long page = firstPage; page < windowStart + length; page += PAGE_BYTES)
        {
            window.putByte((int)(page - windowStart), (byte)0);
        }
    }

    @Override
    void writeSeqNums()
    {
        final int slotOffset = seqNums.writeNext(slots, 0, crc);
        if (sync.onWrite())
        {
            slotsMapping.force(slotOffset, SequenceNumberSlots.SLOT_LENGTH);
            sync.onForced(0);
            forced();
        }
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
        if (null != slotsMapping)
        {
            slotsMapping.force();
        }
        if (null != windowMapping)
        {
            windowMapping.force((int)(unforcedFrom - windowStart), (int)(dataEnd - unforcedFrom));
            unforcedFrom = dataEnd;
        }
    }

    @Override
    void release()
    {
        try (channel)
        {
            unmap(windowMapping, window);
            unmap(slotsMapping, slots);
        }
        finally
        {
            windowMapping = null;
            slotsMapping = null;
        }
    }

    /** Maps {@code length} bytes of the file from {@code position} into {@code buffer}, extending the file if it is shorter. */
    private MappedByteBuffer map(final long position, final int length, final UnsafeBuffer buffer)
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            if (raf.length() < position + length)
            {
                raf.setLength(position + length);
            }
            final MappedByteBuffer mapping = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, position, length);
            buffer.wrap(mapping);
            return mapping;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot map " + length + " bytes of " + file + " at " + position +
                ": check free disk space", ex);
        }
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

    private static void unmap(final MappedByteBuffer mapping, final UnsafeBuffer buffer)
    {
        if (null != mapping)
        {
            buffer.wrap(0, 0);
            IoUtil.unmap(mapping);
        }
    }
}
