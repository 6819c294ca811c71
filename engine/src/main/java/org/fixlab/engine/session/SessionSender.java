package org.fixlab.engine.session;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MessageWriter;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.codec.UtcTimestamps;
import org.fixlab.engine.messagelog.MessageLog;
import org.fixlab.engine.store.MessageStore;

/**
 * The outbound half of a session: frames a message with the session's header and the next MsgSeqNum,
 * hands it to the transport's buffer, stores it for resends, logs it, and replays stored messages
 * under their original numbers. It owns the sender sequence number; the {@link Session} decides what
 * to send and when, and {@link ResendResponder} what to replay, through this class alone.
 */
final class SessionSender
{
    private final MessageWriter writer;
    private final MessageStore store;
    private final MessageLog messageLog;
    private final EpochNanoClock clock;
    private final TimestampPrecision precision;
    private final MessageEncoder gapFill = new MessageEncoder(256);
    private final UnsafeBuffer timestampScratch = new UnsafeBuffer(ByteBuffer.allocateDirect(32));

    private SessionTransport transport;
    private int nextSeqNum;
    private long lastSentNanos;

    SessionSender(final SessionId id, final MessageStore store, final MessageLog messageLog, final EpochNanoClock clock,
        final TimestampPrecision precision)
    {
        this.writer = new MessageWriter(id.version(), id.senderCompId(), id.targetCompId(), precision);
        this.store = store;
        this.messageLog = messageLog;
        this.clock = clock;
        this.precision = precision;
        this.nextSeqNum = store.nextSenderSeqNum();
    }

    /** Sends on this connection from now on (null: none, every send is refused). */
    void bind(final SessionTransport transport, final long nowNanos)
    {
        this.transport = transport;
        this.lastSentNanos = nowNanos;
    }

    MessageStore store()
    {
        return store;
    }

    int nextSeqNum()
    {
        return nextSeqNum;
    }

    /** Starts again at 1 (the store was reset). */
    void resetSeqNum()
    {
        nextSeqNum = 1;
    }

    long lastSentNanos()
    {
        return lastSentNanos;
    }

    /**
     * Frames the message under the next MsgSeqNum and, if {@code persist}, stores it for resends (admin
     * messages are not: a resend covers them with a gap fill).
     *
     * @return the MsgSeqNum used, or a negative {@link SendResult}.
     */
    long send(final MessageEncoder message, final boolean persist)
    {
        if (transport == null)
        {
            return SendResult.NOT_LOGGED_ON;
        }
        final int seqNum = nextSeqNum;
        if (seqNum <= 0)
        {
            return SendResult.NOT_LOGGED_ON; // past 2147483647: nothing goes out under a wrapped number
        }
        final int length = writer.length(message, seqNum, false, 0);
        final int offset = transport.claim(length);
        if (offset < 0)
        {
            return length > transport.outboundBuffer().capacity() ? SendResult.TOO_LARGE : SendResult.BACK_PRESSURED;
        }
        final long now = clock.nanoTime();
        final MutableDirectBuffer out = transport.outboundBuffer();
        writer.write(out, offset, message, seqNum, now, false, null, 0, 0);
        transport.commit(offset, length);
        messageLog.message(out, offset, length, now);
        if (persist)
        {
            store.storeSent(seqNum, out, offset, length);
        }
        nextSeqNum = seqNum + 1;
        store.nextSenderSeqNum(nextSeqNum);
        lastSentNanos = now;
        return seqNum;
    }

    /**
     * Writes a resent message under its original MsgSeqNum with PossDupFlag=Y and
     * OrigSendingTime; the body comes from the store. Returns false when back-pressured.
     */
    boolean resend(final int seqNum, final MessageEncoder message, final DirectBuffer origSendingTime, final int origOffset,
        final int origLength)
    {
        if (transport == null)
        {
            return false;
        }
        final int length = writer.length(message, seqNum, true, origLength);
        // a resend leaves a quarter of the buffer to new messages, which are served between its chunks
        final int capacity = transport.outboundBuffer().capacity();
        final int offset = transport.hasRoom(Math.min(length + capacity / 4, capacity)) ? transport.claim(length)
            : SessionTransport.BACK_PRESSURED;
        if (offset < 0)
        {
            return false;
        }
        final long now = clock.nanoTime();
        writer.write(transport.outboundBuffer(), offset, message, seqNum, now, true, origSendingTime, origOffset, origLength);
        transport.commit(offset, length);
        messageLog.message(transport.outboundBuffer(), offset, length, now);
        lastSentNanos = now;
        return true;
    }

    /** SequenceReset-GapFill at {@code seqNum} covering everything up to {@code newSeqNo} - 1. */
    boolean sendGapFill(final int seqNum, final int newSeqNo)
    {
        AdminMessages.gapFill(gapFill, newSeqNo);
        // A gap fill has no original: its OrigSendingTime is its own SendingTime.
        final int origLength = UtcTimestamps.encode(timestampScratch, 0, clock.nanoTime(), precision);
        return resend(seqNum, gapFill, timestampScratch, 0, origLength);
    }
}
