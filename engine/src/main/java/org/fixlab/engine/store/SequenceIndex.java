package org.fixlab.engine.store;

import java.util.Arrays;

/**
 * Where each record of the memory store is: seqNum to a position in its ring.
 *
 * <p>A fixed power-of-two table addressed by {@code seqNum & mask}, because sent sequence numbers are
 * dense and rising: consecutive numbers never collide while the live span fits the table, and a seqNum
 * simply takes its slot from the older seqNum a table length below it, which then counts as evicted.
 * (The file and mapped stores keep every number: {@link ChunkedSequenceIndex}.)
 */
final class SequenceIndex
{
    static final long MISSING = -1;

    private static final int MAX_CAPACITY = 1 << 30;

    private final int[] seqNums;
    private final long[] positions;
    private final int mask;
    private int lowest;
    private int highest;

    SequenceIndex(final int capacity)
    {
        if (capacity < 1 || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("index capacity must be a power of two in [1, 2^30], got " + capacity);
        }
        seqNums = new int[capacity];
        positions = new long[capacity];
        mask = capacity - 1;
        clear();
    }

    void put(final int seqNum, final long position)
    {
        final int slot = seqNum & mask;
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

    /** No seqNum below this was stored since the last clear. Greater than {@link #highest} when empty. */
    int lowest()
    {
        return lowest;
    }

    /** No live seqNum is above this. */
    int highest()
    {
        return highest;
    }

    /** How many consecutive numbers the index can hold at once. */
    int capacity()
    {
        return mask + 1;
    }

    void clear()
    {
        Arrays.fill(positions, MISSING);
        lowest = Integer.MAX_VALUE;
        highest = 0;
    }
}
