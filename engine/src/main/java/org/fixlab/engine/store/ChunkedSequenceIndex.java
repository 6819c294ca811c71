package org.fixlab.engine.store;

import static org.agrona.UnsafeAccess.UNSAFE;

/**
 * Where each stored sequence number's latest record is, for the file and mapped stores: addressed
 * directly by sequence number, in chunks of 65,536 positions. A chunk is native memory, allocated the
 * first time a number in its range is stored and kept until the store closes, so a session that outgrows
 * the chunks allocated up front costs 8 bytes a message of native memory once and nothing on the Java
 * heap: the index makes no garbage and no allocation the GC sees, however long the session. Never
 * copies or drops a table. Not thread-safe; after {@link #close()} every position reads as missing.
 */
final class ChunkedSequenceIndex implements AutoCloseable
{
    static final long MISSING = -1;

    private static final int CHUNK_BITS = 16;
    private static final int CHUNK_SIZE = 1 << CHUNK_BITS;
    private static final int CHUNK_MASK = CHUNK_SIZE - 1;
    private static final long CHUNK_BYTES = (long)CHUNK_SIZE * Long.BYTES;
    /** Every byte of MISSING (-1): a chunk is filled with it in one setMemory. */
    private static final byte MISSING_BYTE = (byte)0xFF;

    /** The native address of each chunk of the positive int range (32,768 of them), 0 where none is allocated. */
    private final long[] chunks = new long[1 << (Integer.SIZE - 1 - CHUNK_BITS)];
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
        long chunk = chunks[seqNum >>> CHUNK_BITS];
        if (chunk == 0)
        {
            chunk = newChunk();
            chunks[seqNum >>> CHUNK_BITS] = chunk;
        }
        UNSAFE.putLong(chunk + ((long)(seqNum & CHUNK_MASK) << 3), position);
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
        final long chunk = chunks[seqNum >>> CHUNK_BITS];
        return chunk == 0 ? MISSING : UNSAFE.getLong(chunk + ((long)(seqNum & CHUNK_MASK) << 3));
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
                if (chunks[chunk] != 0)
                {
                    UNSAFE.setMemory(chunks[chunk], CHUNK_BYTES, MISSING_BYTE);
                }
            }
        }
        lowest = Integer.MAX_VALUE;
        highest = 0;
    }

    /** Frees the chunks' native memory. */
    @Override
    public void close()
    {
        for (int i = 0; i < chunks.length; i++)
        {
            if (chunks[i] != 0)
            {
                UNSAFE.freeMemory(chunks[i]);
                chunks[i] = 0;
            }
        }
        lowest = Integer.MAX_VALUE;
        highest = 0;
    }

    private static long newChunk()
    {
        final long chunk = UNSAFE.allocateMemory(CHUNK_BYTES);
        UNSAFE.setMemory(chunk, CHUNK_BYTES, MISSING_BYTE);
        return chunk;
    }
}
