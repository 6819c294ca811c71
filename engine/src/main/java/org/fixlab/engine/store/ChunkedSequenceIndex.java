package org.fixlab.engine.store;

import static org.agrona.UnsafeAccess.UNSAFE;

/**
 * Where each stored sequence number's latest record is, for the file and mapped stores: addressed
 * directly by sequence number, in chunks of 65,536 positions. A chunk is native memory, kept until the
 * store closes, so a session that outgrows the chunks allocated up front costs 8 bytes a message of
 * native memory once and nothing on the Java heap: the index makes no garbage and no allocation the GC
 * sees, however long the session. Never copies or drops a table. Not thread-safe; after {@link #close()}
 * every position reads as missing.
 *
 * <p>The chunk after the highest number's is readied ahead, {@link #stepAhead a step} at a time on the
 * store's idle duty cycles: allocating and filling 512 KiB in {@link #put} took 0.3-0.5 ms of a send every
 * 65,536 messages. A number whose chunk is not there yet (a stream with no idle cycle, a jump) gets it in
 * {@code put}, as before.
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
    /** What one step fills of the chunk readied ahead: 64 KiB, 16 pages the kernel gives it on first touch. */
    private static final long STEP_BYTES = 64 * 1024;

    /** The native address of each chunk of the positive int range (32,768 of them), 0 where none is allocated. */
    private final long[] chunks = new long[1 << (Integer.SIZE - 1 - CHUNK_BITS)];
    private int lowest = Integer.MAX_VALUE;
    private int highest;
    /** The chunk being readied ahead (not yet in {@link #chunks}), 0 when none, and how much of it is filled. */
    private long readyingChunk;
    private long readyingFilled;
    /** Chunks {@link #put} allocated, or finished filling, itself: no steps had readied them (for tests). */
    private long chunksAllocatedInPut;

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
            chunk = readyingChunk != 0 ? finishReadying() : newChunk();
            chunks[seqNum >>> CHUNK_BITS] = chunk;
            chunksAllocatedInPut++;
        }
        UNSAFE.putLong(chunk + ((long)(seqNum & CHUNK_MASK) << 3), position);
        lowest = Math.min(lowest, seqNum);
        highest = Math.max(highest, seqNum);
    }

    /**
     * One step of readying the chunk after the highest number's, once that number is past the middle of its chunk
     * and the next is not there: allocating it, or filling 64 KiB of it with MISSING; the step that fills its last
     * bytes puts it in place. False when there is nothing to do.
     */
    boolean stepAhead()
    {
        final int following = (highest >>> CHUNK_BITS) + 1;
        if ((highest & CHUNK_MASK) < CHUNK_SIZE / 2 || following >= chunks.length || chunks[following] != 0)
        {
            return false;
        }
        if (readyingChunk == 0)
        {
            readyingChunk = UNSAFE.allocateMemory(CHUNK_BYTES);
            readyingFilled = 0;
            return true;
        }
        final long step = Math.min(STEP_BYTES, CHUNK_BYTES - readyingFilled);
        UNSAFE.setMemory(readyingChunk + readyingFilled, step, MISSING_BYTE);
        readyingFilled += step;
        if (readyingFilled == CHUNK_BYTES)
        {
            chunks[following] = readyingChunk;
            readyingChunk = 0;
        }
        return true;
    }

    /** The chunk being readied, filled to its end now: a number needs it before the steps finished it. */
    private long finishReadying()
    {
        final long chunk = readyingChunk;
        UNSAFE.setMemory(chunk + readyingFilled, CHUNK_BYTES - readyingFilled, MISSING_BYTE);
        readyingChunk = 0;
        return chunk;
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

    long chunksAllocatedInPut()
    {
        return chunksAllocatedInPut;
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
        if (readyingChunk != 0)
        {
            UNSAFE.freeMemory(readyingChunk);
            readyingChunk = 0;
        }
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
