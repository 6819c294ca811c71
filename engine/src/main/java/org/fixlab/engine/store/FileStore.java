package org.fixlab.engine.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An append-only store in two files, written with system calls; QuickFIX/J's file names:
 * <ul>
 *   <li>{@code <sessionKey>.body}: every sent message as a {@link RecordDescriptor} record, appended;</li>
 *   <li>{@code <sessionKey>.seqnums}: the two sequence numbers in two alternating
 *       {@link SequenceNumberSlots}, rewritten in place.</li>
 * </ul>
 *
 * <p>Opening scans the body and rebuilds the index (seqNum to file position); the latest record of a
 * seqNum stored twice wins. The first record that does not validate ends the data: a write torn by a
 * crash or power loss is cut off (the file truncated there), never replayed. The next sender seqNum
 * is moved past the highest stored message (see {@link PersistentStore#advancePastStoredMessages}).
 *
 * <p>Under the {@code none} and {@code interval} sync policies, a record is written when it is stored
 * and the sequence numbers once per duty cycle ({@link #writePending}, before the transport writes to
 * the socket): one system call per message sent and none per message received, where writing the
 * numbers each time cost one more per message either way. Under {@code every-message} each record and
 * sequence number is written and forced before the call returns.
 *
 * <p>{@link #storeSent} writes once through a reused direct buffer and does not allocate in steady
 * state; the index takes one more chunk of 65,536 positions of native memory (not the Java heap) each time
 * the session's sequence numbers outgrow it, freed when the store closes. Not thread-safe.
 */
public final class FileStore extends PersistentStore
{
    public static final String BODY_SUFFIX = ".body";
    public static final String SEQ_NUMS_SUFFIX = ".seqnums";

    private static final int INITIAL_WRITE_BUFFER_BYTES = 4096;

    private final ReopeningFileChannel body;
    private final ReopeningFileChannel seqNumsFile;
    private final FileRecordReader reader;
    private final UnsafeBuffer slotsBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(SequenceNumberSlots.LENGTH));
    private UnsafeBuffer writeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(INITIAL_WRITE_BUFFER_BYTES));
    private long dataEnd;

    private FileStore(final Path dir, final String sessionKey, final StoreOptions options)
    {
        super("FileStore " + dir.resolve(sessionKey + BODY_SUFFIX), options);
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
        return recovered(new FileStore(dir, sessionKey, options));
    }

    @Override
    public void storeSent(final int seqNum, final DirectBuffer buffer, final int offset, final int length)
    {
        checkOpen();
        StoreChecks.checkMessage(seqNum, length, Integer.MAX_VALUE - RecordDescriptor.HEADER_LENGTH, name);
        final int recordLength = RecordDescriptor.recordLength(length);
        if (recordLength > writeBuffer.capacity())
        {
            writeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Integer.highestOneBit(recordLength - 1) << 1));
        }
        RecordDescriptor.write(writeBuffer, 0, seqNum, buffer, offset, length, crc);
        body.writeFully(bytes(writeBuffer, 0, recordLength), dataEnd);
        indexSent(seqNum, dataEnd);
        dataEnd += recordLength;
        if (sync.onWrite())
        {
            body.force();
            sync.onForced(0);
            forced();
        }
    }

    /**
     * Empties the body, then writes 1 and 1 as sequence numbers, forcing each step: a crash in between
     * leaves the old sequence numbers and no messages, which the session answers with gap fills.
     * The reverse order could leave old messages that recovery would move the new counter past.
     */
    @Override
    public void reset()
    {
        checkOpen();
        body.truncate(0);
        body.force();
        reader.invalidate();
        index.clear();
        dataEnd = 0;
        seqNums.nextSender(1);
        seqNums.nextTarget(1);
        writeAndForceSeqNums();
    }

    @Override
    void recover()
    {
        final ByteBuffer slots = slotsBuffer.byteBuffer();
        slots.clear();
        while (slots.hasRemaining() && seqNumsFile.read(slots, slots.position()) > 0)
        {
            // read until the 64 bytes are in or the file (new, or cut short) ends; the rest stays zero
        }
        seqNums.load(slotsBuffer, 0, crc, seqNumsFile.path().toString());

        final long fileLength = body.size();
        dataEnd = indexRecords(reader, 0, fileLength);
        if (dataEnd < fileLength)
        {
            body.truncate(dataEnd);
            reader.invalidate();
            body.force();
        }
        advancePastStoredMessages();
    }

    @Override
    int writeSeqNumSlot()
    {
        final int slotOffset = seqNums.writeNext(slotsBuffer, 0, crc);
        seqNumsFile.writeFully(bytes(slotsBuffer, slotOffset, slotOffset + SequenceNumberSlots.SLOT_LENGTH), slotOffset);
        return slotOffset;
    }

    @Override
    void forceSeqNumSlot(final int slotOffset)
    {
        seqNumsFile.force();
    }

    @Override
    int loadRecord(final long position)
    {
        return reader.load(position, dataEnd) == RecordDescriptor.INVALID ? -1 : reader.offsetOf(position);
    }

    @Override
    DirectBuffer recordBuffer()
    {
        return reader.window();
    }

    @Override
    void forceAll()
    {
        writePending();
        body.force();
        seqNumsFile.force();
    }

    @Override
    void release()
    {
        try (body; seqNumsFile)
        {
            // closes both, the second even if the first fails
        }
    }

    private static ByteBuffer bytes(final UnsafeBuffer buffer, final int from, final int to)
    {
        final ByteBuffer bytes = buffer.byteBuffer();
        bytes.limit(to);
        bytes.position(from);
        return bytes;
    }
}
