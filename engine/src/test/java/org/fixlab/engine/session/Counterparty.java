package org.fixlab.engine.session;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.codec.UtcTimestamps;

/**
 * The other side of the session under test: writes the messages it receives, with the peer's
 * CompIDs, SendingTime from the test clock, and a correct BodyLength and CheckSum. Tests state every
 * MsgSeqNum themselves, so that a scenario reads like a conformance script.
 */
final class Counterparty
{
    private final String beginString;
    private final String senderCompId;
    private final String targetCompId;
    private final CachedNanoClock clock;

    Counterparty(final FixVersion version, final String senderCompId, final String targetCompId, final CachedNanoClock clock)
    {
        this.beginString = version.beginString();
        this.senderCompId = senderCompId;
        this.targetCompId = targetCompId;
        this.clock = clock;
    }

    /** A UTCTimestamp in milliseconds, as the session writes them by default. */
    static String timestamp(final long epochNanos)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        final int length = UtcTimestamps.encode(buffer, 0, epochNanos, TimestampPrecision.MILLIS);
        return buffer.getStringWithoutLengthAscii(0, length);
    }

    Message message(final String msgType, final int seqNum)
    {
        return new Message(msgType, seqNum);
    }

    Message message(final char msgType, final int seqNum)
    {
        return new Message(String.valueOf(msgType), seqNum);
    }

    Message logon(final int seqNum, final int heartBtInt)
    {
        return message(MsgTypes.LOGON, seqNum).field(Fix.ENCRYPT_METHOD, 0).field(Fix.HEART_BT_INT, heartBtInt);
    }

    Message heartbeat(final int seqNum)
    {
        return message(MsgTypes.HEARTBEAT, seqNum);
    }

    Message order(final int seqNum)
    {
        return message("D", seqNum).field(11, "ORD-" + seqNum).field(21, 1).field(55, "IBM").field(54, 1).field(40, 1);
    }

    Message gapFill(final int seqNum, final int newSeqNo)
    {
        return message(MsgTypes.SEQUENCE_RESET, seqNum).possDup(clock.nanoTime())
            .field(Fix.GAP_FILL_FLAG, "Y").field(Fix.NEW_SEQ_NO, newSeqNo);
    }

    /** One inbound message under construction; the standard header is written by {@link #frame}. */
    final class Message
    {
        private final String msgType;
        private final int seqNum;
        private final StringBuilder body = new StringBuilder();
        private String sender = senderCompId;
        private String target = targetCompId;
        private long sendingTime = clock.nanoTime();
        private String origSendingTime;
        private boolean possDup;
        private boolean withSeqNum = true;
        private String seqNumText;

        private Message(final String msgType, final int seqNum)
        {
            this.msgType = msgType;
            this.seqNum = seqNum;
        }

        Message field(final int tag, final Object value)
        {
            body.append(tag).append('=').append(value).append('|');
            return this;
        }

        Message sender(final String value)
        {
            sender = value;
            return this;
        }

        Message target(final String value)
        {
            target = value;
            return this;
        }

        Message sendingTime(final long epochNanos)
        {
            sendingTime = epochNanos;
            return this;
        }

        /** PossDupFlag=Y with OrigSendingTime, as a resent message carries them. */
        Message possDup(final long origSendingTimeNanos)
        {
            possDup = true;
            origSendingTime = timestamp(origSendingTimeNanos);
            return this;
        }

        Message possDupWithoutOrigSendingTime()
        {
            possDup = true;
            origSendingTime = null;
            return this;
        }

        Message withoutSeqNum()
        {
            withSeqNum = false;
            return this;
        }

        /** MsgSeqNum(34) present with this text instead of a number. */
        Message seqNumText(final String text)
        {
            seqNumText = text;
            return this;
        }

        String frame()
        {
            final StringBuilder header = new StringBuilder("8=").append(beginString).append("|35=").append(msgType).append('|');
            if (withSeqNum)
            {
                header.append("34=").append(seqNumText != null ? seqNumText : String.valueOf(seqNum)).append('|');
            }
            header.append("49=").append(sender).append("|52=").append(timestamp(sendingTime)).append("|56=").append(target).append('|');
            if (possDup)
            {
                header.append("43=Y|");
                if (origSendingTime != null)
                {
                    header.append("122=").append(origSendingTime).append('|');
                }
            }
            return FixFrame.frame(header.append(body).toString());
        }
    }
}
