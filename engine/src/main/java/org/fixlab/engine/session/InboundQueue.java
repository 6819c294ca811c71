package org.fixlab.engine.session;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Holds inbound messages that arrived ahead of a sequence gap until the gap is filled, in a fixed
 * off-heap buffer: bounded memory, no allocation. Records are {@code [seqNum][length][bytes]}; a
 * consumed record's seqNum is zeroed, and the buffer is reused once every record is consumed.
 */
final class InboundQueue
{
    private static final int HEADER = 8;

    private final UnsafeBuffer buffer;
    private int limit;
    private int live;

    InboundQueue(final int capacity)
    {
        buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(capacity, 1024)));
    }

    /** Queues a copy; false when full (the caller lets the resend bring it again). */
    boolean offer(final int seqNum, final DirectBuffer src, final int offset, final int length)
    {
        if (limit + HEADER + length > buffer.capacity())
        {
            return false;
        }
        buffer.putInt(limit, seqNum);
        buffer.putInt(limit + 4, length);
        buffer.putBytes(limit + HEADER, src, offset, length);
        limit += HEADER + length;
        live++;
        return true;
    }

    /**
     * Finds the queued message with {@code seqNum}, discards every queued message below it, and
     * returns its record offset (message at {@link #messageOffset}), or -1.
     */
    int take(final int seqNum)
    {
        int found = -1;
        for (int p = 0; p < limit; p += HEADER + buffer.getInt(p + 4))
        {
            final int queued = buffer.getInt(p);
            if (queued == 0)
            {
                continue;
            }
            if (queued < seqNum || (queued == seqNum && found >= 0))
            {
                consume(p);
            }
            else if (queued == seqNum)
            {
                found = p;
            }
        }
        if (found >= 0)
        {
            consume(found);
        }
        return found;
    }

    /**
     * Puts a record {@link #take} returned back, for a message that could not be processed yet (the
     * application aborted it): the next take of {@code seqNum} finds it again. Valid only before any
     * other offer, take or clear.
     */
    void restore(final int record, final int seqNum)
    {
        buffer.putInt(record, seqNum);
        live++;
    }

    /** Must be read before the next {@link #offer}, which may reuse the space. */
    int messageOffset(final int record)
    {
        return record + HEADER;
    }

    int messageLength(final int record)
    {
        return buffer.getInt(record + 4);
    }

    DirectBuffer buffer()
    {
        return buffer;
    }

    boolean isEmpty()
    {
        return live == 0;
    }

    /** Space is reclaimed only when nothing live is left, so call this after processing a taken record. */
    void compactIfEmpty()
    {
        if (live == 0)
        {
            limit = 0;
        }
    }

    void clear()
    {
        limit = 0;
        live = 0;
    }

    private void consume(final int record)
    {
        buffer.putInt(record, 0);
        live--;
    }
}
