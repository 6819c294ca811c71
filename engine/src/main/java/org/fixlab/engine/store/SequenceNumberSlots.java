package org.fixlab.engine.store;

import org.agrona.concurrent.UnsafeBuffer;

import static org.fixlab.engine.store.RecordDescriptor.BYTE_ORDER;

/**
 * The two sequence numbers of a persistent store, and their crash-safe layout: two slots written
 * alternately, each with a generation counter and a CRC32C. A write torn by a crash damages only the
 * slot being written, so loading falls back to the other slot, which holds the previous good values.
 *
 * <pre>
 *   slot 0 at 0, slot 1 at 32, each:
 *    0  long generation   incremented on every write; the slot is generation &amp; 1
 *    8  int  nextSender
 *   12  int  nextTarget
 *   16  int  checksum     CRC32C of bytes [0, 16) of the slot
 *   20  12 bytes reserved, zero
 * </pre>
 */
final class SequenceNumberSlots
{
    static final int SLOT_LENGTH = 32;
    static final int LENGTH = 2 * SLOT_LENGTH;

    private static final int GENERATION_OFFSET = 0;
    private static final int NEXT_SENDER_OFFSET = 8;
    private static final int NEXT_TARGET_OFFSET = 12;
    private static final int CHECKSUM_OFFSET = 16;

    private long generation;
    private int nextSender = 1;
    private int nextTarget = 1;

    int nextSender()
    {
        return nextSender;
    }

    int nextTarget()
    {
        return nextTarget;
    }

    void nextSender(final int seqNum)
    {
        nextSender = seqNum;
    }

    void nextTarget(final int seqNum)
    {
        nextTarget = seqNum;
    }

    /**
     * Takes the values of the newest slot whose checksum holds. Two empty slots (a new file) give 1
     * and 1, and so does one empty slot beside a torn one: the very first write was cut short.
     *
     * @param where names the file in the error when both slots are damaged, which a single torn write
     *              cannot explain.
     */
    void load(final UnsafeBuffer buffer, final int regionOffset, final Crc32cRange crc, final String where)
    {
        final int slot0 = regionOffset;
        final int slot1 = regionOffset + SLOT_LENGTH;
        final boolean valid0 = isValid(buffer, slot0, crc);
        final boolean valid1 = isValid(buffer, slot1, crc);
        if (valid0 || valid1)
        {
            final int newest = !valid1 || (valid0 && generation(buffer, slot0) > generation(buffer, slot1)) ? slot0 : slot1;
            generation = generation(buffer, newest);
            nextSender = buffer.getInt(newest + NEXT_SENDER_OFFSET, BYTE_ORDER);
            nextTarget = buffer.getInt(newest + NEXT_TARGET_OFFSET, BYTE_ORDER);
        }
        else if (isEmpty(buffer, slot0) || isEmpty(buffer, slot1))
        {
            generation = 0;
            nextSender = 1;
            nextTarget = 1;
        }
        else
        {
            throw new IllegalStateException("Both sequence number slots in " + where + " fail their checksum, " +
                "which a crash during one write cannot cause: the file is damaged. Restore it from a backup, or " +
                "delete the store's files to restart the session from sequence number 1 (agree that with the counterparty).");
        }
    }

    /**
     * Encodes the current values into the slot the next generation owns.
     *
     * @return the offset of the written slot, relative to {@code regionOffset}.
     */
    int writeNext(final UnsafeBuffer buffer, final int regionOffset, final Crc32cRange crc)
    {
        generation++;
        final int slotOffset = (int)(generation & 1) * SLOT_LENGTH;
        final int slot = regionOffset + slotOffset;
        buffer.putLong(slot + GENERATION_OFFSET, generation, BYTE_ORDER);
        buffer.putInt(slot + NEXT_SENDER_OFFSET, nextSender, BYTE_ORDER);
        buffer.putInt(slot + NEXT_TARGET_OFFSET, nextTarget, BYTE_ORDER);
        buffer.putInt(slot + CHECKSUM_OFFSET, crc.compute(buffer, slot, slot + CHECKSUM_OFFSET), BYTE_ORDER);
        return slotOffset;
    }

    private static long generation(final UnsafeBuffer buffer, final int slot)
    {
        return buffer.getLong(slot + GENERATION_OFFSET, BYTE_ORDER);
    }

    private static boolean isValid(final UnsafeBuffer buffer, final int slot, final Crc32cRange crc)
    {
        return generation(buffer, slot) > 0 &&
            buffer.getInt(slot + CHECKSUM_OFFSET, BYTE_ORDER) == crc.compute(buffer, slot, slot + CHECKSUM_OFFSET);
    }

    private static boolean isEmpty(final UnsafeBuffer buffer, final int slot)
    {
        for (int i = 0; i < SLOT_LENGTH; i += Long.BYTES)
        {
            if (buffer.getLong(slot + i) != 0)
            {
                return false;
            }
        }
        return true;
    }
}
