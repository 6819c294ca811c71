package org.fixlab.engine.store;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Byte layout of one stored message in {@link FileStore} and {@link MappedStore} files, and the one
 * place that writes and validates it, so both stores agree on what a complete record is.
 *
 * <pre>
 *   0  int  checksum  CRC32C of bytes [4, 16 + length): a torn, zeroed or flipped record fails it
 *   4  int  magic     "FXR1": format version 1, and never 0 like the zero-filled end of a file
 *   8  int  seqNum    MsgSeqNum(34) of the message, at least 1
 *  12  int  length    payload length in bytes
 *  16  ...  payload   the message exactly as sent
 * </pre>
 *
 * All integers little-endian. Records follow each other without padding; the first one that does
 * not validate marks the end of the data, and everything from there on is cut off when a store opens.
 */
final class RecordDescriptor
{
    static final int CHECKSUM_OFFSET = 0;
    static final int MAGIC_OFFSET = 4;
    static final int SEQ_NUM_OFFSET = 8;
    static final int LENGTH_OFFSET = 12;
    static final int HEADER_LENGTH = 16;

    /** 'F' 'X' 'R' '1' in file order. */
    static final int MAGIC = 0x31525846;
    static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** What {@link #validLength} returns for anything that is not a complete, intact record. */
    static final int INVALID = 0;

    private RecordDescriptor()
    {
    }

    static int recordLength(final int payloadLength)
    {
        return HEADER_LENGTH + payloadLength;
    }

    static int payloadOffset(final int recordOffset)
    {
        return recordOffset + HEADER_LENGTH;
    }

    static int seqNum(final DirectBuffer buffer, final int recordOffset)
    {
        return buffer.getInt(recordOffset + SEQ_NUM_OFFSET, BYTE_ORDER);
    }

    static int payloadLength(final DirectBuffer buffer, final int recordOffset)
    {
        return buffer.getInt(recordOffset + LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * Writes a complete record at {@code recordOffset}. The checksum goes last, so a process killed
     * anywhere in between leaves a record that cannot validate.
     *
     * @return the record length.
     */
    static int write(
        final UnsafeBuffer record,
        final int recordOffset,
        final int seqNum,
        final DirectBuffer payload,
        final int payloadOffset,
        final int payloadLength,
        final Crc32cRange crc)
    {
        record.putBytes(payloadOffset(recordOffset), payload, payloadOffset, payloadLength);
        record.putInt(recordOffset + SEQ_NUM_OFFSET, seqNum, BYTE_ORDER);
        record.putInt(recordOffset + LENGTH_OFFSET, payloadLength, BYTE_ORDER);
        record.putInt(recordOffset + MAGIC_OFFSET, MAGIC, BYTE_ORDER);
        final int recordLength = recordLength(payloadLength);
        record.putInt(recordOffset + CHECKSUM_OFFSET, checksum(record, recordOffset, recordLength, crc), BYTE_ORDER);
        return recordLength;
    }

    /**
     * Whether the header at {@code recordOffset} can start a record, judged on its first
     * {@link #HEADER_LENGTH} bytes alone. Readers use it before loading a payload whose length came
     * from a possibly torn header.
     *
     * @param available bytes of data from {@code recordOffset} to the end of the file.
     * @return the record length the header announces, or {@link #INVALID}.
     */
    static int announcedLength(final DirectBuffer buffer, final int recordOffset, final long available)
    {
        if (available < HEADER_LENGTH ||
            buffer.getInt(recordOffset + MAGIC_OFFSET, BYTE_ORDER) != MAGIC ||
            seqNum(buffer, recordOffset) < 1)
        {
            return INVALID;
        }
        final int payloadLength = payloadLength(buffer, recordOffset);
        return payloadLength < 0 || payloadLength > available - HEADER_LENGTH ? INVALID : recordLength(payloadLength);
    }

    /**
     * @param available bytes of data from {@code recordOffset} to the end of what {@code buffer} holds.
     * @return the length of the complete, intact record at {@code recordOffset}, or {@link #INVALID}.
     */
    static int validLength(final UnsafeBuffer buffer, final int recordOffset, final long available, final Crc32cRange crc)
    {
        final int recordLength = announcedLength(buffer, recordOffset, available);
        if (recordLength == INVALID ||
            buffer.getInt(recordOffset + CHECKSUM_OFFSET, BYTE_ORDER) != checksum(buffer, recordOffset, recordLength, crc))
        {
            return INVALID;
        }
        return recordLength;
    }

    private static int checksum(final UnsafeBuffer buffer, final int recordOffset, final int recordLength, final Crc32cRange crc)
    {
        return crc.compute(buffer, recordOffset + MAGIC_OFFSET, recordOffset + recordLength);
    }
}
