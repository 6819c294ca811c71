package org.fixlab.engine.store;

import java.nio.ByteBuffer;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A bounded, garbage-free store in process memory: the {@code optimized} preset's store.
 *
 * <p>Sent messages go into one off-heap ring allocated up front; when it is full the oldest messages
 * are evicted to make room. <b>An evicted message is no longer replayed</b>: a ResendRequest reaching
 * back past the ring's reach gets SequenceReset-GapFill for those numbers instead of the messages, as
 * for admin messages. Size the ring for the resend depth the counterparties need (64 MiB holds about
 * 300,000 messages of 200 bytes). Sequence numbers and messages are lost when the process ends.
 *
 * <p>Ring record, starting at a multiple of 8 bytes; the payload runs on at the ring's start when it
 * reaches the end:
 * <pre>
 *   0  int  seqNum
 *   4  int  length   payload length
 *   8  ...  payload
 * </pre>
 *
 * <p>Nothing is evicted by a walk: positions count bytes ever written, and a record is intact while
 * the writes after it have not gone round the ring onto it ({@code position >= tail - capacity}),
 * which replay checks. So storing a message takes the same path on the first lap of the ring as
 * on every later one. A store that began evicting, or padding the ring's end, at its first wrap
 * ran code the JIT had compiled as never taken: the session's whole send path went back to the
 * interpreter, and recompiling it took a CPU for 100-250 ms (a paced run 64 MiB into its
 * session stalled in 4 ms slices all that time).
 */
public final class MemoryStore implements MessageStore
{
    /** 64 MiB. */
    public static final int DEFAULT_CAPACITY_BYTES = 64 * 1024 * 1024;

    /** The smallest record the index is sized for: smaller messages may be evicted from the index early. */
    static final int MIN_INDEXED_RECORD_LENGTH = 64;

    private static final int SEQ_NUM_OFFSET = 0;
    private static final int LENGTH_OFFSET = 4;
    private static final int HEADER_LENGTH = 8;

    private final UnsafeBuffer ring;
    private final int capacity;
    private final int mask;
    private final SequenceIndex index;

    /** Positions count bytes ever written, so positions are unique and the ring offset is position & mask. */
    private long tail;
    /** Where replay puts a record whose payload runs on at the ring's start: allocated on the first such replay. */
    private UnsafeBuffer replayScratch;
    private int nextSender = 1;
    private int nextTarget = 1;
    private boolean closed;

    public MemoryStore()
    {
        this(DEFAULT_CAPACITY_BYTES);
    }

    /** @param capacityBytes a power of two, at least 1 KiB: the off-heap ring allocated now. */
    public MemoryStore(final int capacityBytes)
    {
        if (capacityBytes < 1024 || !BitUtil.isPowerOfTwo(capacityBytes))
        {
            throw new IllegalArgumentException("MemoryStore capacity must be a power of two of at least 1024 bytes, got " +
                capacityBytes + ": use for example 67108864 (64 MiB)");
        }
        capacity = capacityBytes;
        mask = capacityBytes - 1;
        ring = new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes));
        index = new SequenceIndex(Math.max(1, capacityBytes / MIN_INDEXED_RECORD_LENGTH));
    }

    /** The largest message this store can hold. */
    public int maxMessageLength()
    {
        return capacity - HEADER_LENGTH;
    }

    @Override
    public int nextSenderSeqNum()
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        return nextSender;
    }

    @Override
    public int nextTargetSeqNum()
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        return nextTarget;
    }

    @Override
    public void nextSenderSeqNum(final int seqNum)
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        nextSender = seqNum;
    }

    @Override
    public void nextTargetSeqNum(final int seqNum)
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        nextTarget = seqNum;
    }

    @Override
    public void storeSent(final int seqNum, final DirectBuffer buffer, final int offset, final int length)
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        StoreChecks.checkMessage(seqNum, length, maxMessageLength(), "MemoryStore");
        final int recordOffset = (int)(tail & mask);
        ring.putInt(recordOffset + SEQ_NUM_OFFSET, seqNum);
        ring.putInt(recordOffset + LENGTH_OFFSET, length);
        // Two copies every time, the second usually of nothing: a branch for the ring's end would be one the JIT
        // sees taken only at the first wrap (see the class comment)
        final int payloadOffset = recordOffset + HEADER_LENGTH;
        final int beforeEnd = bytesBeforeEnd(payloadOffset, length);
        ring.putBytes(payloadOffset, buffer, offset, beforeEnd);
        ring.putBytes(0, buffer, offset + beforeEnd, length - beforeEnd);
        index.put(seqNum, tail);
        tail += BitUtil.align(HEADER_LENGTH + length, HEADER_LENGTH);
    }

    @Override
    public int replay(final int fromSeqNum, final int toSeqNum, final SentMessageHandler handler)
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        int reported = 0;
        final long oldestIntact = tail - capacity;
        // the index holds at most its capacity of consecutive numbers: nothing older can be found
        final long first = Math.max(Math.max(fromSeqNum, index.lowest()), (long)index.highest() - index.capacity() + 1);
        for (long seqNum = first, last = Math.min(toSeqNum, index.highest()); seqNum <= last; seqNum++)
        {
            final long position = index.position((int)seqNum);
            if (position != SequenceIndex.MISSING && position >= oldestIntact)
            {
                deliver((int)seqNum, (int)(position & mask), handler);
                reported++;
            }
        }
        return reported;
    }

    private void deliver(final int seqNum, final int recordOffset, final SentMessageHandler handler)
    {
        final int length = ring.getInt(recordOffset + LENGTH_OFFSET);
        final int payloadOffset = recordOffset + HEADER_LENGTH;
        final int beforeEnd = bytesBeforeEnd(payloadOffset, length);
        if (beforeEnd == length)
        {
            handler.onMessage(seqNum, ring, payloadOffset, length);
            return;
        }
        if (replayScratch == null || replayScratch.capacity() < length)
        {
            replayScratch = new UnsafeBuffer(new byte[Math.max(length, 4096)]);
        }
        replayScratch.putBytes(0, ring, payloadOffset, beforeEnd);
        replayScratch.putBytes(beforeEnd, ring, 0, length - beforeEnd);
        handler.onMessage(seqNum, replayScratch, 0, length);
    }

    /** How much of a payload at {@code payloadOffset} lies before the ring's end; the rest is at its start. */
    private int bytesBeforeEnd(final int payloadOffset, final int length)
    {
        return Math.min(length, capacity - payloadOffset);
    }

    @Override
    public void reset()
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        tail = 0;
        index.clear();
        nextSender = 1;
        nextTarget = 1;
    }

    @Override
    public void flush(final long nowNanos)
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            // Free the ring now rather than at some later GC: every later call fails the closed check first.
            BufferUtil.free(ring.byteBuffer());
        }
    }
}
