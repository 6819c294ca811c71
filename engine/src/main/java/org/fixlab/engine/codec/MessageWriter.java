package org.fixlab.engine.codec;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Frames one outbound message of a session: BeginString, BodyLength, the standard header, the
 * caller's extra header and body, and CheckSum. BodyLength is computed up front from the lengths of
 * the parts, so the message is written once, front to back, straight into the transport's buffer.
 */
public final class MessageWriter
{
    /** "<SOH>35=" as a little-endian int, and with room for a one-character MsgType and its SOH. */
    private static final int SOH_MSG_TYPE_TAG = (int)TagBytes.littleEndian("\u000135=");
    private static final long MSG_TYPE_WORD = SOH_MSG_TYPE_TAG & 0xFFFFFFFFL | (long)Fix.SOH << 40;
    private static final int SOH_SENDING_TIME_TAG = (int)TagBytes.littleEndian("\u000152=");
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
    private final TimestampCache sendingTime;

    public MessageWriter(final FixVersion version, final String senderCompId, final String targetCompId,
        final TimestampPrecision precision)
    {
        this.beginStringField = ascii("8=" + version.beginString() + "\u00019=");
        this.compIdsAndSeqNumTag = ascii("49=" + senderCompId + "\u000156=" + targetCompId + "\u000134=");
        this.senderTargetLength = compIdsAndSeqNumTag.length - 3;
        this.precision = precision;
        this.beginStringSum = Checksum.sum(beginStringField);
        this.sendingTime = new TimestampCache(precision);
    }

    /** Total bytes {@link #write} will produce for these part lengths. */
    public int length(final int msgTypeLength, final int seqNum, final boolean possDup, final int origSendingTimeLength,
        final int extraHeaderLength, final int bodyLength)
    {
        final int bodyLengthValue = bodyLength(msgTypeLength, seqNum, possDup, origSendingTimeLength, extraHeaderLength, bodyLength);
        return beginStringField.length + Ascii.digits(bodyLengthValue) + 1 + bodyLengthValue + 7;
    }

    /**
     * Writes the message at {@code offset}; returns its length. {@code origSendingTime} is copied
     * as OrigSendingTime(122) when possDup is set and its length is positive.
     */
    public int write(final MutableDirectBuffer out, final int offset,
        final byte[] msgType, final int msgTypeLength, final int seqNum, final long sendingTimeNanos,
        final boolean possDup, final DirectBuffer origSendingTime, final int origOffset, final int origLength,
        final DirectBuffer extraHeader, final int extraHeaderLength, final DirectBuffer body, final int bodyLength)
    {
        final int bodyLengthValue = bodyLength(msgTypeLength, seqNum, possDup, origLength, extraHeaderLength, bodyLength);
        int p = offset;
        out.putBytes(p, beginStringField);
        p += beginStringField.length;
        p += out.putNaturalIntAscii(p, bodyLengthValue);
        if (msgTypeLength == 1)
        {
            // "<SOH>35=t<SOH>" in one store; the CompIDs that follow overwrite the word's last two bytes
            out.putLong(p, MSG_TYPE_WORD | (msgType[0] & 0xFFL) << 32, ByteOrder.LITTLE_ENDIAN);
            p += 6;
        }
        else
        {
            out.putInt(p, SOH_MSG_TYPE_TAG, ByteOrder.LITTLE_ENDIAN);
            p += 4;
            out.putBytes(p, msgType, 0, msgTypeLength);
            p += msgTypeLength;
            out.putByte(p++, Fix.SOH);
        }
        out.putBytes(p, compIdsAndSeqNumTag);
        p += compIdsAndSeqNumTag.length;
        p += out.putNaturalIntAscii(p, seqNum);
        if (possDup)
        {
            out.putByte(p++, Fix.SOH);
            out.putByte(p++, (byte)'4');
            out.putByte(p++, (byte)'3');
            out.putByte(p++, Fix.EQUALS);
            out.putByte(p++, (byte)'Y');
        }
        out.putInt(p, SOH_SENDING_TIME_TAG, ByteOrder.LITTLE_ENDIAN);
        p += 4;
        p += sendingTime.encode(out, p, sendingTimeNanos);
        out.putByte(p++, Fix.SOH);
        if (possDup && origLength > 0)
        {
            out.putByte(p++, (byte)'1');
            out.putByte(p++, (byte)'2');
            out.putByte(p++, (byte)'2');
            out.putByte(p++, Fix.EQUALS);
            out.putBytes(p, origSendingTime, origOffset, origLength);
            p += origLength;
            out.putByte(p++, Fix.SOH);
        }
        if (extraHeaderLength > 0)
        {
            out.putBytes(p, extraHeader, 0, extraHeaderLength);
            p += extraHeaderLength;
        }
        if (bodyLength > 0)
        {
            out.putBytes(p, body, 0, bodyLength);
            p += bodyLength;
        }
        // "8=FIX.4.x<SOH>9=" was summed once; the rest is summed eight bytes at a time
        final int rest = offset + beginStringField.length;
        final int checksum = (beginStringSum + Checksum.compute(out, rest, p - rest)) & 0xFF;
        // "10=nnn<SOH>" in three stores, none past the message's last byte
        final long trailer = TRAILERS[checksum];
        out.putInt(p, (int)trailer, ByteOrder.LITTLE_ENDIAN);
        out.putShort(p + 4, (short)(trailer >>> 32), ByteOrder.LITTLE_ENDIAN);
        out.putByte(p + 6, Fix.SOH);
        p += 7;
        return p - offset;
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
