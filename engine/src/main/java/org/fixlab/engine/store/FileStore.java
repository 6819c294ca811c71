package org.fixlab.engine.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An append-only store in two files, the {@code balanced} preset's store; QuickFIX/J's file names:
 * <ul>
 *   <li>{@code <sessionKey>.body}: every sent message as a {@link RecordDescriptor} record, appended;</li>
 *   <li>{@code <sessionKey>.seqnums}: the two sequence numbers in two alternating
 *       {@link SequenceNumberSlots}, rewritten in place.</li>
 * </ul>
 *
 * <p>Opening scans the body and rebuilds the index (seqNum to file position); the latest record of a
 * seqNum stored twice wins. The first record that does not validate ends the data: a write torn by a
 * crash or power loss is cut off (the file truncated there), never replayed. If a record with a
 * seqNum at or above the stored next sender seqNum survived, the process died between storing a
 * message and advancing the counter; the counter is moved past it, so a message that may have gone
 * out is never sent again under the same number (if it did not, the counterparty asks for it and
 * gets it from the store).
 *
 * <p>{@link #storeSent} writes once through a reused direct buffer and does not allocate in steady
 * state; the index only doubles as the session's sequence numbers outgrow it. Not thread-safe.
 */
public final class FileStore implements MessageStore
{
    public static final String BODY_SUFFIX = ".body";
    public static final String SEQ_NUMS_SUFFIX = ".seqnums";

    private static final int INITIAL_WRITE_BUFFER_BYTES = 4096;

    private final String name;
    private final ReopeningFileChannel body;
    private final ReopeningFileChannel seqNumsFile;
    private final FileRecordReader reader;
    private final SyncSchedule sync;
    private final SequenceIndex index;
    private final SequenceNumberSlots seqNums = new SequenceNumberSlots();
    private final UnsafeBuffer slotsBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(SequenceNumberSlots.LENGTH));
    private final Crc32cRange crc = new Crc32cRange();
    private UnsafeBuffer writeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(INITIAL_WRITE_BUFFER_BYTES));
    private long dataEnd;
    private boolean closed;

    private FileStore(final Path dir, final String sessionKey, final StoreOptions options)
    {
        name = "FileStore " + dir.resolve(sessionKey + BODY_SUFFIX);
        sync = new SyncSchedule(options.syncPolicy(), options.syncIntervalNanos());
        index = new SequenceIndex(options.indexCapacity(), false);
        final Path bodyPath = StoreFiles.resolve(dir, sessionKey, BODY_SUFFIX);
        body = new ReopeningFileChannel(bodyPath);
        reader = new FileRecordReader(body, crc);
        try
        {
            seqNumsFile = new ReopeningFileChannel(StoreFiles.resolve(dir, sessionKey, SEQ_NUMS_SUFFIX));
        }
        catch (final RuntimeException ex)
        {
            body.close();
            throw ex;
        }
    }

    /** Opens the session's files in {@code dir}, creating them if needed, and recovers their content. */
    public static FileStore open(final Path dir, final String sessionKey, final StoreOptions options)
    {
        final FileStore store = new FileStore(dir, sessionKey, options);
        try
        {
            store.recover();
            return store;
        }
        catch (final RuntimeException ex)
        {
            store.close();
            throw ex;
        }
    }

    @Override
    public int nextSenderSeqNum()
    {
        StoreChecks.checkOpen(closed, name);
        return seqNums.nextSender();
    }

    @Override
    public int nextTargetSeqNum()
    {
        StoreChecks.checkOpen(closed, name);
        return seqNums.nextTarget();
    }

    @Override
    public void nextSenderSeqNum(final int seqNum)
    {
        StoreChecks.checkOpen(closed, name);
        seqNums.nextSender(seqNum);
        writeSeqNums();
    }

    @Override
    public void nextTargetSeqNum(final int seqNum)
    {
        StoreChecks.checkOpen(closed, name);
        seqNums.nextTarget(seqNum);
        writeSeqNums();
    }

    @Override
    public void storeSent(final int seqNum, final DirectBuffer buffer, final int offset, final int length)
    {
        StoreChecks.checkOpen(closed, name);
        StoreChecks.checkMessage(seqNum, length, Integer.MAX_VALUE - RecordDescriptor.HEADER_LENGTH, name);
        final int recordLength = RecordDescriptor.recordLength(length);
        if (recordLength > writeBuffer.capacity())
        {
            writeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Integer.highestOneBit(recordLength - 1) << 1));
        }
        RecordDescriptor.write(writeBuffer, 0, seqNum, buffer, offset, length, crc);
        body.writeFully(bytes(writeBuffer, 0, recordLength), dataEnd);
        index.put(seqNum, dataEnd);
        dataEnd += recordLength;
        if (sync.onWrite())
        {
            body.force();
            sync.onForced(0);
        }
    }

    @Override
    public int replay(final int fromSeqNum, final int toSeqNum, final SentMessageHandler handler)
    {
        StoreChecks.checkOpen(closed, name);
        int reported = 0;
        for (long seqNum = Math.max(fromSeqNum, index.lowest()), last = Math.min(toSeqNum, index.highest()); seqNum <= last; seqNum++)
        {
            final long position = index.position((int)seqNum);
            // A record that no longer validates (damaged on disk since) is a hole, as if never stored.
            if (position != SequenceIndex.MISSING && reader.load(position, dataEnd) != RecordDescriptor.INVALID)
            {
                final UnsafeBuffer window = reader.window();
                final int recordOffset = reader.offsetOf(position);
                handler.onMessage((int)seqNum, window, RecordDescriptor.payloadOffset(recordOffset),
                    RecordDescriptor.payloadLength(window, recordOffset));
                reported++;
            }
        }
        return reported;
    }

    /**
     * Empties the body, then writes 1 and 1 as sequence numbers, forcing each step: a crash in between
     * leaves the old sequence numbers and no messages, which the session answers with gap fills.
     * The reverse order could leave old messages that recovery would move the new counter past.
     */
    @Override
    public void reset()
    {
        StoreChecks.checkOpen(closed, name);
        body.truncate(0);
        body.force();
        reader.invalidate();
        index.clear();
        dataEnd = 0;
        seqNums.nextSender(1);
        seqNums.nextTarget(1);
        writeSeqNums();
        seqNumsFile.force();
    }

    /** Under {@link SyncPolicy#INTERVAL}, forces both files if the interval has passed since the last force. */
    @Override
    public void flush()
    {
        StoreChecks.checkOpen(closed, name);
        final long now = System.nanoTime();
        if (sync.isDue(now))
        {
            forceAll(now);
        }
    }

    /** Forces what the sync policy still owes, then closes both files. Later calls do nothing. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try (body; seqNumsFile)
        {
            if (sync.isDirty())
            {
                forceAll(System.nanoTime());
            }
        }
    }

    @Override
    public String toString()
    {
        return name;
    }

    private void recover()
    {
        final ByteBuffer slots = slotsBuffer.byteBuffer();
        slots.clear();
        while (slots.hasRemaining() && seqNumsFile.read(slots, slots.position()) > 0)
        {
            // read until the 64 bytes are in or the file (new, or cut short) ends; the rest stays zero
        }
        seqNums.load(slotsBuffer, 0, crc, seqNumsFile.path().toString());

        final long fileLength = body.size();
        long position = 0;
        int recordLength;
        while ((recordLength = reader.load(position, fileLength)) != RecordDescriptor.INVALID)
        {
            index.put(RecordDescriptor.seqNum(reader.window(), reader.offsetOf(position)), position);
            position += recordLength;
        }
        dataEnd = position;
        if (dataEnd < fileLength)
        {
            body.truncate(dataEnd);
            reader.invalidate();
            body.force();
        }
        if (index.highest() >= seqNums.nextSender())
        {
            nextSenderSeqNum(index.highest() + 1);
        }
    }

    private void writeSeqNums()
    {
        final int slotOffset = seqNums.writeNext(slotsBuffer, 0, crc);
        seqNumsFile.writeFully(bytes(slotsBuffer, slotOffset, slotOffset + SequenceNumberSlots.SLOT_LENGTH), slotOffset);
        if (sync.onWrite())
        {
            seqNumsFile.force();
            sync.onForced(0);
        }
    }

    private void forceAll(final long nowNanos)
    {
        body.force();
        seqNumsFile.force();
        sync.onForced(nowNanos);
    }

    private static ByteBuffer bytes(final UnsafeBuffer buffer, final int from, final int to)
    {
        final ByteBuffer bytes = buffer.byteBuffer();
        bytes.limit(to);
        bytes.position(from);
        return bytes;
    }
}
