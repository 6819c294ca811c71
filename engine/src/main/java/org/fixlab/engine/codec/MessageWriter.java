package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Frames one outbound message of a session: BeginString, BodyLength, the standard header, the
 * caller's extra header and body, and CheckSum. BodyLength is computed up front from the lengths of
 * the parts, so the message is written once, front to back, straight into the transport's buffer.
 * CheckSum is added up as the parts are written, from sums known without reading them back: the
 * constant parts' once, numbers' from the words of their digits, SendingTime's from its cache, the
 * body's and extra header's from the {@link MessageEncoder} that built them.
 */
public final class MessageWriter
{
    /** "<SOH>35=" as a little-endian int, and with room for a one-character MsgType and its SOH. */
    private static final int SOH_MSG_TYPE_TAG = (int)TagBytes.littleEndian("\u000135=");
    private static final long MSG_TYPE_WORD = SOH_MSG_TYPE_TAG & 0xFFFFFFFFL | (long)Fix.SOH << 40;
    private static final int SOH_SENDING_TIME_TAG = (int)TagBytes.littleEndian("\u000152=");
    private static final int SOH_POSS_DUP_TAG = (int)TagBytes.littleEndian("\u000143=");
    private static final int ORIG_SENDING_TIME_TAG = (int)TagBytes.littleEndian("122=");
    private static final int SOH_MSG_TYPE_TAG_SUM = Checksum.ofWord(SOH_MSG_TYPE_TAG & 0xFFFFFFFFL);
    private static final int SOH_SENDING_TIME_TAG_SUM = Checksum.ofWord(SOH_SENDING_TIME_TAG & 0xFFFFFFFFL);
    private static final int SOH_POSS_DUP_SUM = Checksum.ofWord(SOH_POSS_DUP_TAG & 0xFFFFFFFFL) + 'Y';
    private static final int ORIG_SENDING_TIME_TAG_SUM = Checksum.ofWord(ORIG_SENDING_TIME_TAG & 0xFFFFFFFFL);
    /** "10=nnn" for every CheckSum, the first six bytes of the trailer. */
    private static final long[] TRAILERS = new long[256];

    static
    {
        for (int sum = 0; sum < TRAILERS.length; sum++)
        {
            TRAILERS[sum] = TagBytes.littleEndian(String.format("10=%03d", sum));
        }
    }

    private final byte[] beginStringField;    // "8=FIX.4.4<SOH>9="
    private final byte[] compIdsAndSeqNumTag; // "49=SENDER<SOH>56=TARGET<SOH>34="
    private final int senderTargetLength;
    private final TimestampPrecision precision;
    private final int beginStringSum;
    private final int compIdsAndSeqNumTagSum;
    private final TimestampCache sendingTime;

    public MessageWriter(final FixVersion version, final String senderCompId, final String targetCompId,
        final TimestampPrecision precision)
    {
        this.beginStringField = ascii("8=" + version.beginString() + "\u00019=");
        this.compIdsAndSeqNumTag = ascii("49=" + senderCompId + "\u000156=" + targetCompId + "\u000134=");
        this.senderTargetLength = compIdsAndSeqNumTag.length - 3;
        this.precision = precision;
        this.beginStringSum = Checksum.sum(beginStringField);
        this.compIdsAndSeqNumTagSum = Checksum.sum(compIdsAndSeqNumTag);
        this.sendingTime = new TimestampCache(precision);
    }

    /** Total bytes {@link #write(MutableDirectBuffer, int, MessageEncoder, int, long, boolean, DirectBuffer, int, int)} will produce. */
    public int length(final MessageEncoder message, final int seqNum, final boolean possDup, final int origSendingTimeLength)
    {
        return length(message.msgTypeLength(), seqNum, possDup, origSendingTimeLength, message.extraHeaderLength(),
            message.bodyLength());
    }

    /** Total bytes {@link #write} will produce for these part lengths. */
    public int length(final int msgTypeLength, final int seqNum, final boolean possDup, final int origSendingTimeLength,
        final int extraHeaderLength, final int bodyLength)
    {
        return length(bodyLength(msgTypeLength, seqNum, possDup, origSendingTimeLength, extraHeaderLength, bodyLength));
    }

    /** The whole message's length for this BodyLength: BeginString, BodyLength's field, the body, "10=nnn<SOH>". */
    private int length(final int bodyLengthValue)
    {
        return beginStringField.length + Ascii.digits(bodyLengthValue) + 1 + bodyLengthValue + 7;
    }

    /**
     * Frames what {@code message} holds (MsgType, extra header, body) at {@code offset}; returns its length. As
     * {@link #write(MutableDirectBuffer, int, byte[], int, int, long, boolean, DirectBuffer, int, int, DirectBuffer, int,
     * DirectBuffer, int) the form with parts}, which frames parts that did not come from an encoder.
     */
    public int write(final MutableDirectBuffer out, final int offset, final MessageEncoder message, final int seqNum,
        final long sendingTimeNanos, final boolean possDup, final DirectBuffer origSendingTime, final int origOffset,
        final int origLength)
    {
        return frame(out, offset, message.msgType(), message.msgTypeLength(), seqNum, sendingTimeNanos, possDup,
            origSendingTime, origOffset, origLength, message.extraHeader(), message.extraHeaderLength(),
            message.extraHeaderSum(), message.body(), message.bodyLength(), message.bodySum());
    }

    /**
     * Writes the message at {@code offset}; returns its length. {@code origSendingTime} is copied
     * as OrigSendingTime(122) when possDup is set and its length is positive. The bounds of the whole
     * message are checked once, up front; the parts are then stored without a check each.
     */
    public int write(final MutableDirectBuffer out, final int offset,
        final byte[] msgType, final int msgTypeLength, final int seqNum, final long sendingTimeNanos,
        final boolean possDup, final DirectBuffer origSendingTime, final int origOffset, final int origLength,
        final DirectBuffer extraHeader, final int extraHeaderLength, final DirectBuffer body, final int bodyLength)
    {
        return frame(out, offset, msgType, msgTypeLength, seqNum, sendingTimeNanos, possDup, origSendingTime, origOffset,
            origLength, extraHeader, extraHeaderLength, extraHeaderLength > 0 ? Checksum.compute(extraHeader, 0, extraHeaderLength) : 0,
            body, bodyLength, bodyLength > 0 ? Checksum.compute(body, 0, bodyLength) : 0);
    }

    /** Either form of write: the extra header's and the body's byte sums come with them. */
    private int frame(final MutableDirectBuffer out, final int offset,
        final byte[] msgType, final int msgTypeLength, final int seqNum, final long sendingTimeNanos,
        final boolean possDup, final DirectBuffer origSendingTime, final int origOffset, final int origLength,
        final DirectBuffer extraHeader, final int extraHeaderLength, final int extraHeaderSum,
        final DirectBuffer body, final int bodyLength, final int bodySum)
    {
        final int bodyLengthValue = bodyLength(msgTypeLength, seqNum, possDup, origLength, extraHeaderLength, bodyLength);
        final int bodyLengthDigits = Ascii.digits(bodyLengthValue);
        final int length = length(bodyLengthValue);
        out.boundsCheck(offset, length);
        if (possDup && origLength > 0)
        {
            origSendingTime.boundsCheck(origOffset, origLength);
        }
        if (extraHeaderLength > 0)
        {
            extraHeader.boundsCheck(0, extraHeaderLength);
        }
        if (bodyLength > 0)
        {
            body.boundsCheck(0, bodyLength);
        }
        final Object array = out.byteArray();
        final long start = out.addressOffset() + offset;
        long p = start;
        RawBytes.put(array, p, beginStringField);
        p += beginStringField.length;
        // the header's fields follow BodyLength's digits
        int sum = beginStringSum + RawBytes.putDigitsInWord(array, p, bodyLengthValue, bodyLengthDigits);
        p += bodyLengthDigits;
        if (msgTypeLength == 1)
        {
            // "<SOH>35=t<SOH>" in one store; the CompIDs that follow overwrite the word's last two bytes
            RawBytes.putLong(array, p, MSG_TYPE_WORD | (msgType[0] & 0xFFL) << 32);
            p += 6;
            sum += SOH_MSG_TYPE_TAG_SUM + (msgType[0] & 0xFF) + Fix.SOH;
        }
        else
        {
            RawBytes.putInt(array, p, SOH_MSG_TYPE_TAG);
            p += 4;
            RawBytes.copy(msgType, RawBytes.ARRAY_BASE, array, p, msgTypeLength);
            p += msgTypeLength;
            RawBytes.putByte(array, p++, Fix.SOH);
            sum += SOH_MSG_TYPE_TAG_SUM + Checksum.compute(msgType, RawBytes.ARRAY_BASE, msgTypeLength) + Fix.SOH;
        }
        RawBytes.put(array, p, compIdsAndSeqNumTag);
        p += compIdsAndSeqNumTag.length;
        final int seqNumDigits = Ascii.digits(seqNum);
        // SendingTime's field follows the digits
        sum += compIdsAndSeqNumTagSum + RawBytes.putDigitsInWord(array, p, seqNum, seqNumDigits);
        p += seqNumDigits;
        if (possDup)
        {
            RawBytes.putInt(array, p, SOH_POSS_DUP_TAG);
            RawBytes.putByte(array, p + 4, (byte)'Y');
            p += 5;
            sum += SOH_POSS_DUP_SUM;
        }
        RawBytes.putInt(array, p, SOH_SENDING_TIME_TAG);
        p += 4;
        p += sendingTime.encode(array, p, sendingTimeNanos);
        RawBytes.putByte(array, p++, Fix.SOH);
        sum += SOH_SENDING_TIME_TAG_SUM + sendingTime.lastSum() + Fix.SOH;
        if (possDup && origLength > 0)
        {
            RawBytes.putInt(array, p, ORIG_SENDING_TIME_TAG);
            p += 4;
            RawBytes.copy(origSendingTime.byteArray(), origSendingTime.addressOffset() + origOffset, array, p, origLength);
            p += origLength;
            RawBytes.putByte(array, p++, Fix.SOH);
            sum += ORIG_SENDING_TIME_TAG_SUM + Checksum.compute(origSendingTime, origOffset, origLength) + Fix.SOH;
        }
        if (extraHeaderLength > 0)
        {
            RawBytes.copy(extraHeader.byteArray(), extraHeader.addressOffset(), array, p, extraHeaderLength);
            p += extraHeaderLength;
        }
        if (bodyLength > 0)
        {
            RawBytes.copy(body.byteArray(), body.addressOffset(), array, p, bodyLength);
            p += bodyLength;
        }
        // "10=nnn<SOH>" in three stores, none past the message's last byte
        final long trailer = TRAILERS[(sum + extraHeaderSum + bodySum) & 0xFF];
        RawBytes.putInt(array, p, (int)trailer);
        RawBytes.putShort(array, p + 4, (short)(trailer >>> 32));
        RawBytes.putByte(array, p + 6, Fix.SOH);
        return length;
    }

    private int bodyLength(final int msgTypeLength, final int seqNum, final boolean possDup, final int origSendingTimeLength,
        final int extraHeaderLength, final int bodyLength)
    {
        int length = 4 + msgTypeLength;                          // 35=x<SOH>
        length += senderTargetLength;
        length += 4 + Ascii.digits(seqNum);                       // 34=n<SOH>
        length += 4 + precision.length();                         // 52=t<SOH>
        if (possDup)
        {
            length += 5;                                          // 43=Y<SOH>
            if (origSendingTimeLength > 0)
            {
                length += 5 + origSendingTimeLength;              // 122=t<SOH>
            }
        }
        return length + extraHeaderLength + bodyLength;
    }

    private static byte[] ascii(final String s)
    {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
