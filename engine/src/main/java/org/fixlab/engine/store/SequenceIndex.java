package org.fixlab.engine.store;

import java.util.Arrays;

/**
 * Where each stored sequence number's latest record is: seqNum to a store-defined position.
 *
 * <p>A power-of-two table addressed by {@code seqNum & mask}, because sent sequence numbers are
 * dense and rising: consecutive numbers never collide while the live span fits the table. Two modes:
 * <ul>
 *   <li>growing (file stores): a collision doubles the table until the span fits, so nothing is lost
 *       and steady state does not allocate once the table has reached the session's size;</li>
 *   <li>bounded (memory store): fixed size; a seqNum simply takes its slot from the older seqNum a
 *       table length below it, which then counts as evicted.</li>
 * </ul>
 */
final class SequenceIndex
{
    static final long MISSING = -1;

    private static final int MAX_CAPACITY = 1 << 30;

    private final boolean bounded;
    private int[] seqNums;
    private long[] positions;
    private int mask;
    private int lowest;
    private int highest;

    SequenceIndex(final int capacity, final boolean bounded)
    {
        if (capacity < 1 || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("index capacity must be a power of two in [1, 2^30], got " + capacity);
        }
        this.bounded = bounded;
        allocate(capacity);
    }

    void put(final int seqNum, final long position)
    {
        final int slot = seqNum & mask;
        if (!bounded && positions[slot] != MISSING && seqNums[slot] != seqNum)
        {
            grow(seqNum);
            put(seqNum, position);
            return;
        }
        seqNums[slot] = seqNum;
        positions[slot] = position;
        lowest = Math.min(lowest, seqNum);
        highest = Math.max(highest, seqNum);
    }

    /** @return the position of {@code seqNum}'s latest record, or {@link #MISSING}. */
    long position(final int seqNum)
    {
        final int slot = seqNum & mask;
        return seqNums[slot] == seqNum ? positions[slot] : MISSING;
    }

    /** Forgets {@code seqNum} if its latest record is the one at {@code position} (the memory store evicting it). */
    void removeIfAt(final int seqNum, final long position)
    {
        final int slot = seqNum & mask;
        if (seqNums[slot] == seqNum && positions[slot] == position)
        {
            positions[slot] = MISSING;
            if (seqNum == lowest)
            {
                // Oldest-first eviction of rising numbers: keeps replay from walking the evicted range.
                lowest++;
            }
        }
    }

    /** No live seqNum is below this (a bound, not necessarily stored). Greater than {@link #highest} when empty. */
    int lowest()
    {
        return lowest;
    }

    /** No live seqNum is above this. */
    int highest()
    {
        return highest;
    }

    void clear()
    {
        Arrays.fill(positions, MISSING);
        lowest = Integer.MAX_VALUE;
        highest = 0;
    }

    private void grow(final int seqNum)
    {
        final long span = (long)Math.max(highest, seqNum) - Math.min(lowest, seqNum) + 1;
        if (span > MAX_CAPACITY)
        {
            throw new IllegalStateException("stored sequence numbers span " + span + " values (" +
                Math.min(lowest, seqNum) + " to " + Math.max(highest, seqNum) + "), more than the index holds (2^30): " +
                "reset the store before jumping sequence numbers that far");
        }
        final int[] oldSeqNums = seqNums;
        final long[] oldPositions = positions;
        final int keptLowest = lowest;
        final int keptHighest = highest;
        allocate(Math.max(oldPositions.length * 2, Integer.highestOneBit((int)span - 1) << 1));
        for (int i = 0; i < oldPositions.length; i++)
        {
            if (oldPositions[i] != MISSING)
            {
                put(oldSeqNums[i], oldPositions[i]);
            }
        }
        lowest = keptLowest;
        highest = keptHighest;
    }

    private void allocate(final int capacity)
    {
        seqNums = new int[capacity];
        positions = new long[capacity];
        mask = capacity - 1;
        clear();
    }
}
