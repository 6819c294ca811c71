package org.fixlab.engine.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds the part of a message the application owns: MsgType, any extra header fields (for example
 * OnBehalfOfCompID or PossResend) and the body. The session adds BeginString, BodyLength, the
 * standard header (CompIDs, MsgSeqNum, SendingTime) and CheckSum when it frames the message, so the
 * same encoder can be sent on any session. Reuse one encoder: {@link #reset} clears it without
 * allocating.
 */
public final class MessageEncoder
{
    private final UnsafeBuffer body;
    private final UnsafeBuffer header;
    /** One per precision: consecutive timestamps share their date and time up to the second. */
    private final TimestampCache[] timestamps = new TimestampCache[TimestampPrecision.values().length];
    private final byte[] msgType = new byte[16];
    private int msgTypeLength;
    private int bodyLength;
    private int headerLength;

    public MessageEncoder()
    {
        this(4096);
    }

    public MessageEncoder(final int capacity)
    {
        body = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
        header = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.min(capacity, 1024)));
        for (final TimestampPrecision precision : TimestampPrecision.values())
        {
            timestamps[precision.ordinal()] = new TimestampCache(precision);
        }
    }

    /** Starts a new message of the given type. */
    public MessageEncoder reset(final char type)
    {
        msgType[0] = (byte)type;
        msgTypeLength = 1;
        bodyLength = 0;
        headerLength = 0;
        return this;
    }

    public MessageEncoder reset(final CharSequence type)
    {
        if (type.length() == 0 || type.length() > msgType.length)
        {
            throw new IllegalArgumentException("MsgType must have 1.." + msgType.length + " characters: '" + type + "'");
        }
        for (int i = 0; i < type.length(); i++)
        {
            msgType[i] = (byte)type.charAt(i);
        }
        msgTypeLength = type.length();
        bodyLength = 0;
        headerLength = 0;
        return this;
    }

    /** Starts a new message with the type found at a decoded field. */
    public MessageEncoder reset(final DirectBuffer src, final int offset, final int length)
    {
        if (length == 0 || length > msgType.length)
        {
            throw new IllegalArgumentException("MsgType must have 1.." + msgType.length + " characters");
        }
        src.getBytes(offset, msgType, 0, length);
        msgTypeLength = length;
        bodyLength = 0;
        headerLength = 0;
        return this;
    }

    public MessageEncoder append(final int tag, final int value)
    {
        bodyLength = putTag(body, bodyLength, tag);
        if (value >= 0)
        {
            // one bounds check, and the digits in one word when the buffer has room for it: Agrona's putIntAscii
            // writes a digit per division and checks each byte, and an order's ClOrdID or quantity is six digits or more
            final int digits = Ascii.digits(value);
            body.boundsCheck(bodyLength, digits + 1);
            final long address = body.addressOffset() + bodyLength;
            if (body.capacity() - bodyLength >= Long.BYTES)
            {
                RawBytes.putDigitsInWord(body.byteArray(), address, value, digits);
            }
            else
            {
                RawBytes.putDigits(body.byteArray(), address, value, digits);
            }
            RawBytes.putByte(body.byteArray(), address + digits, Fix.SOH);
            bodyLength += digits + 1;
            return this;
        }
        bodyLength += body.putIntAscii(bodyLength, value);
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    public MessageEncoder append(final int tag, final long value)
    {
        bodyLength = putTag(body, bodyLength, tag);
        bodyLength += body.putLongAscii(bodyLength, value);
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    public MessageEncoder append(final int tag, final char value)
    {
        bodyLength = putCharField(body, bodyLength, tag, (byte)value);
        return this;
    }

    public MessageEncoder append(final int tag, final boolean value)
    {
        return append(tag, value ? 'Y' : 'N');
    }

    public MessageEncoder append(final int tag, final CharSequence value)
    {
        bodyLength = putTag(body, bodyLength, tag);
        for (int i = 0, n = value.length(); i < n; i++)
        {
            body.putByte(bodyLength++, (byte)value.charAt(i));
        }
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    public MessageEncoder append(final int tag, final byte[] value)
    {
        bodyLength = putTag(body, bodyLength, tag);
        body.putBytes(bodyLength, value);
        bodyLength += value.length;
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    public MessageEncoder append(final int tag, final DirectBuffer src, final int offset, final int length)
    {
        bodyLength = putTag(body, bodyLength, tag);
        body.putBytes(bodyLength, src, offset, length);
        bodyLength += length;
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    /** A decimal {@code mantissa * 10^-scale}, for Price and Qty fields, without floating point. */
    public MessageEncoder appendDecimal(final int tag, final long mantissa, final int scale)
    {
        bodyLength = putTag(body, bodyLength, tag);
        if (scale <= 0)
        {
            bodyLength += body.putLongAscii(bodyLength, mantissa);
        }
        else
        {
            long abs = Math.abs(mantissa);
            if (mantissa < 0)
            {
                body.putByte(bodyLength++, (byte)'-');
            }
            long divisor = 1;
            for (int i = 0; i < scale; i++)
            {
                divisor *= 10;
            }
            bodyLength += body.putLongAscii(bodyLength, abs / divisor);
            body.putByte(bodyLength++, (byte)'.');
            // the fraction has up to 18 digits: casting it to int garbled every scale above 9
            Ascii.putPadded(body, bodyLength, abs % divisor, scale);
            bodyLength += scale;
        }
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    public MessageEncoder appendTimestamp(final int tag, final long epochNanos, final TimestampPrecision precision)
    {
        bodyLength = putTag(body, bodyLength, tag);
        bodyLength += timestamps[precision.ordinal()].encode(body, bodyLength, epochNanos);
        body.putByte(bodyLength++, Fix.SOH);
        return this;
    }

    /** Copies complete {@code tag=value<SOH>} fields verbatim into the body. */
    public MessageEncoder appendRaw(final DirectBuffer src, final int offset, final int length)
    {
        body.putBytes(bodyLength, src, offset, length);
        bodyLength += length;
        return this;
    }

    /** An extra header field, written by the session right after the standard header. */
    public MessageEncoder appendHeader(final int tag, final DirectBuffer src, final int offset, final int length)
    {
        headerLength = putTag(header, headerLength, tag);
        header.putBytes(headerLength, src, offset, length);
        headerLength += length;
        header.putByte(headerLength++, Fix.SOH);
        return this;
    }

    public MessageEncoder appendHeader(final int tag, final CharSequence value)
    {
        headerLength = putTag(header, headerLength, tag);
        for (int i = 0, n = value.length(); i < n; i++)
        {
            header.putByte(headerLength++, (byte)value.charAt(i));
        }
        header.putByte(headerLength++, Fix.SOH);
        return this;
    }

    public byte[] msgType()
    {
        return msgType;
    }

    public int msgTypeLength()
    {
        return msgTypeLength;
    }

    /** The single-character MsgType, or 0 for longer types. */
    public char msgTypeChar()
    {
        return msgTypeLength == 1 ? (char)msgType[0] : 0;
    }

    public DirectBuffer body()
    {
        return body;
    }

    public int bodyLength()
    {
        return bodyLength;
    }

    public DirectBuffer extraHeader()
    {
        return header;
    }

    public int extraHeaderLength()
    {
        return headerLength;
    }

    private static int putTag(final UnsafeBuffer buffer, final int position, final int tag)
    {
        if (TagBytes.fitsWord(tag, position, buffer.capacity()))
        {
            // "tag=" in one store: the word's bytes past it are overwritten by what follows
            buffer.putLong(position, TagBytes.word(tag), ByteOrder.LITTLE_ENDIAN);
            return position + TagBytes.length(tag);
        }
        final int p = position + buffer.putIntAscii(position, tag);
        buffer.putByte(p, Fix.EQUALS);
        return p + 1;
    }

    /** A one-character field, "tag=c<SOH>", in one store when the tag is short and the buffer has room. */
    private static int putCharField(final UnsafeBuffer buffer, final int position, final int tag, final byte value)
    {
        if (TagBytes.fitsWord(tag, position, buffer.capacity()))
        {
            final int tagLength = TagBytes.length(tag);
            final long field = TagBytes.word(tag) | (value & 0xFFL) << (tagLength << 3) | (long)Fix.SOH << ((tagLength + 1) << 3);
            buffer.putLong(position, field, ByteOrder.LITTLE_ENDIAN);
            return position + tagLength + 2;
        }
        int p = putTag(buffer, position, tag);
        buffer.putByte(p++, value);
        buffer.putByte(p++, Fix.SOH);
        return p;
    }
}
