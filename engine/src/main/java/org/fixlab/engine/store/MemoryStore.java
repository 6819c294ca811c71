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
 * <p>Ring record, aligned to 8 bytes so a header never straddles the end of the ring:
 * <pre>
 *   0  int  seqNum   0 marks padding that skips to the start of the ring
 *   4  int  length   payload length
 *   8  ...  payload
 * </pre>
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
    private static final int PADDING_SEQ_NUM = 0;

    private final UnsafeBuffer ring;
    private final int capacity;
    private final int mask;
    private final SequenceIndex index;

    /** Positions count bytes ever written, so positions are unique and the ring offset is position & mask. */
    private long head;
    private long tail;
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
        final int recordLength = BitUtil.align(HEADER_LENGTH + length, HEADER_LENGTH);
        final int untilEnd = capacity - (int)(tail & mask);
        if (recordLength > untilEnd)
        {
            makeRoom(untilEnd);
            writeHeader(PADDING_SEQ_NUM, untilEnd - HEADER_LENGTH);
            tail += untilEnd;
        }
        makeRoom(recordLength);
        final int recordOffset = writeHeader(seqNum, length);
        ring.putBytes(recordOffset + HEADER_LENGTH, buffer, offset, length);
        index.put(seqNum, tail);
        tail += recordLength;
    }

    @Override
    public int replay(final int fromSeqNum, final int toSeqNum, final SentMessageHandler handler)
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        int reported = 0;
        for (long seqNum = Math.max(fromSeqNum, index.lowest()), last = Math.min(toSeqNum, index.highest()); seqNum <= last; seqNum++)
        {
            final long position = index.position((int)seqNum);
            if (position != SequenceIndex.MISSING)
            {
                final int recordOffset = (int)(position & mask);
                handler.onMessage((int)seqNum, ring, recordOffset + HEADER_LENGTH, ring.getInt(recordOffset + LENGTH_OFFSET));
                reported++;
            }
        }
        return reported;
    }

    @Override
    public void reset()
    {
        StoreChecks.checkOpen(closed, "MemoryStore");
        head = 0;
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

    private int writeHeader(final int seqNum, final int length)
    {
        final int recordOffset = (int)(tail & mask);
        ring.putInt(recordOffset + SEQ_NUM_OFFSET, seqNum);
        ring.putInt(recordOffset + LENGTH_OFFSET, length);
        return recordOffset;
    }

    private void makeRoom(final int length)
    {
        while (capacity - (tail - head) < length)
        {
            final int recordOffset = (int)(head & mask);
            final int seqNum = ring.getInt(recordOffset + SEQ_NUM_OFFSET);
            if (seqNum != PADDING_SEQ_NUM)
            {
                index.removeIfAt(seqNum, head);
            }
            head += BitUtil.align(HEADER_LENGTH + ring.getInt(recordOffset + LENGTH_OFFSET), HEADER_LENGTH);
        }
    }
}
