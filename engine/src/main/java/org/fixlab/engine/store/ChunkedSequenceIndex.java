package org.fixlab.engine.store;

import java.util.Arrays;

/**
 * Where each stored sequence number's latest record is, for the file and mapped stores: addressed
 * directly by sequence number, in chunks of 65,536 positions. A chunk is allocated the first time a
 * number in its range is stored and is kept for the store's life, so a session that outgrows the
 * chunks allocated up front costs 8 bytes a message once, and never copies or drops a table: the
 * index makes no garbage, however long the session.
 */
final class ChunkedSequenceIndex
{
    static final long MISSING = -1;

    private static final int CHUNK_BITS = 16;
    private static final int CHUNK_SIZE = 1 << CHUNK_BITS;
    private static final int CHUNK_MASK = CHUNK_SIZE - 1;

    /** One slot per chunk of the positive int range: 32,768 references. */
    private final long[][] chunks = new long[1 << (Integer.SIZE - 1 - CHUNK_BITS)][];
    private int lowest = Integer.MAX_VALUE;
    private int highest;

    /** Allocates the chunks of sequence numbers 0 to {@code initialCapacity - 1} up front. */
    ChunkedSequenceIndex(final int initialCapacity)
    {
        if (initialCapacity < 1)
        {
            throw new IllegalArgumentException("index capacity must be positive, got " + initialCapacity);
        }
        for (int chunk = 0, n = (int)(((long)initialCapacity + CHUNK_SIZE - 1) >>> CHUNK_BITS); chunk < n; chunk++)
        {
            chunks[chunk] = newChunk();
        }
    }

    void put(final int seqNum, final long position)
    {
        if (seqNum < 0)
        {
            throw new IllegalArgumentException("sequence numbers are positive, got " + seqNum);
        }
        long[] chunk = chunks[seqNum >>> CHUNK_BITS];
        if (chunk == null)
        {
            chunk = newChunk();
            chunks[seqNum >>> CHUNK_BITS] = chunk;
        }
        chunk[seqNum & CHUNK_MASK] = position;
        lowest = Math.min(lowest, seqNum);
        highest = Math.max(highest, seqNum);
    }

    /** @return the position of {@code seqNum}'s latest record, or {@link #MISSING}. */
    long position(final int seqNum)
    {
        if (seqNum < 0)
        {
            return MISSING;
        }
        final long[] chunk = chunks[seqNum >>> CHUNK_BITS];
        return chunk == null ? MISSING : chunk[seqNum & CHUNK_MASK];
    }

    /** No stored seqNum is below this. Greater than {@link #highest} when empty. */
    int lowest()
    {
        return lowest;
    }

    /** No stored seqNum is above this. */
    int highest()
    {
        return highest;
    }

    /** Forgets every number (a sequence reset); the chunks are kept for the numbers to come. */
    void clear()
    {
        if (lowest <= highest)
        {
            for (int chunk = lowest >>> CHUNK_BITS, last = highest >>> CHUNK_BITS; chunk <= last; chunk++)
            {
                if (chunks[chunk] != null)
                {
                    Arrays.fill(chunks[chunk], MISSING);
                }
            }
        }
        lowest = Integer.MAX_VALUE;
        highest = 0;
    }

    private static long[] newChunk()
    {
        final long[] chunk = new long[CHUNK_SIZE];
        Arrays.fill(chunk, MISSING);
        return chunk;
    }
}
