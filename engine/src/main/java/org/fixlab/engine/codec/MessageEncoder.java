package org.fixlab.engine.codec;

import java.nio.ByteBuffer;

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
    /** In place of a tag in the error of an {@link #appendRaw} that does not fit (a negative tag is still a tag). */
    private static final int RAW_FIELDS = Integer.MIN_VALUE;

    private final UnsafeBuffer body;
    private final UnsafeBuffer header;
    /** One per precision: consecutive timestamps share their date and time up to the second. */
    private final TimestampCache[] timestamps = new TimestampCache[TimestampPrecision.values().length];
    private final byte[] msgType = new byte[16];
    private int msgTypeLength;
    private int bodyLength;
    private int headerLength;
    /**
     * The byte sums of the body and of the extra header, kept as fields are appended (most from what the append
     * already knows: a tag's sum from a table, a number's from the word of its digits), so that framing adds them to
     * the CheckSum instead of reading the message back. Only the low eight bits matter.
     */
    private int bodySum;
    private int headerSum;

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
        return empty();
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
        return empty();
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
        return empty();
    }

    private MessageEncoder empty()
    {
        bodyLength = 0;
        headerLength = 0;
        bodySum = 0;
        headerSum = 0;
        return this;
    }

    public MessageEncoder append(final int tag, final int value)
    {
        final int start = bodyLength;
        try
        {
            bodyLength = putTag(body, bodyLength, tag);
            if (value >= 0)
            {
                // one bounds check, and the digits in one word when the buffer has room for it: Agrona's putIntAscii
                // writes a digit per division and checks each byte, and an order's ClOrdID or quantity is six digits or more
                final int digits = Ascii.digits(value);
                body.boundsCheck(bodyLength, digits + 1);
                final long address = body.addressOffset() + bodyLength;
                final int digitsSum = body.capacity() - bodyLength >= Long.BYTES
                    ? RawBytes.putDigitsInWord(body.byteArray(), address, value, digits)
                    : RawBytes.putDigits(body.byteArray(), address, value, digits);
                RawBytes.putByte(body.byteArray(), address + digits, Fix.SOH);
                bodyLength += digits + 1;
                return bodyField(tag, start, digitsSum);
            }
            bodyLength += body.putIntAscii(bodyLength, value);
            body.putByte(bodyLength++, Fix.SOH);
            return bodyFrom(start);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    public MessageEncoder append(final int tag, final long value)
    {
        final int start = bodyLength;
        try
        {
            bodyLength = putTag(body, bodyLength, tag);
            bodyLength += body.putLongAscii(bodyLength, value);
            body.putByte(bodyLength++, Fix.SOH);
            return bodyFrom(start);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    public MessageEncoder append(final int tag, final char value)
    {
        final int start = bodyLength;
        try
        {
            bodyLength = putCharField(body, bodyLength, tag, (byte)value);
            return bodyField(tag, start, (byte)value & 0xFF);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    public MessageEncoder append(final int tag, final boolean value)
    {
        return append(tag, value ? 'Y' : 'N');
    }

    public MessageEncoder append(final int tag, final CharSequence value)
    {
        final int start = bodyLength;
        try
        {
            // one bounds check for the value and its SOH, then raw stores: a checked store per character was most
            // of appending a symbol or an account
            final int length = value.length();
            final int valueStart = putTag(body, bodyLength, tag);
            body.boundsCheck(valueStart, length + 1);
            final byte[] array = body.byteArray();
            final long address = body.addressOffset() + valueStart;
            int valueSum = 0;
            for (int i = 0; i < length; i++)
            {
                final byte b = (byte)value.charAt(i);
                RawBytes.putByte(array, address + i, b);
                valueSum += b & 0xFF;
            }
            RawBytes.putByte(array, address + length, Fix.SOH);
            bodyLength = valueStart + length + 1;
            return bodyField(tag, start, valueSum);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    /**
     * A field whose value is a pre-formatted constant (a TransactTime or an account kept as bytes): summed for the
     * CheckSum as it is copied, as {@link #append(int, DirectBuffer, int, int)} does. It was stored through Agrona's
     * checked putBytes and putByte and then read back, the round trip's order's one field that still was.
     */
    public MessageEncoder append(final int tag, final byte[] value)
    {
        return appendCopied(tag, value, RawBytes.ARRAY_BASE, value.length);
    }

    /**
     * A field whose value is copied from {@code src} (a decoded message's buffer, typically): the value's bytes are
     * summed for the CheckSum as they are copied, not read back.
     */
    public MessageEncoder append(final int tag, final DirectBuffer src, final int offset, final int length)
    {
        src.boundsCheck(offset, length); // so that what appendCopied catches is this encoder's buffer being full
        return appendCopied(tag, src.byteArray(), src.addressOffset() + offset, length);
    }

    /** "tag=value<SOH>" with {@code length} bytes from memory whose bounds the caller checked. */
    private MessageEncoder appendCopied(final int tag, final Object fromArray, final long fromAddress, final int length)
    {
        final int start = bodyLength;
        try
        {
            final int valueStart = putTag(body, bodyLength, tag);
            body.boundsCheck(valueStart, length + 1);
            final int valueSum = Checksum.copySummed(fromArray, fromAddress, body.byteArray(),
                body.addressOffset() + valueStart, length);
            RawBytes.putByte(body.byteArray(), body.addressOffset() + valueStart + length, Fix.SOH);
            bodyLength = valueStart + length + 1;
            return bodyField(tag, start, valueSum);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    /** A decimal {@code mantissa * 10^-scale}, for Price and Qty fields, without floating point. */
    public MessageEncoder appendDecimal(final int tag, final long mantissa, final int scale)
    {
        final int start = bodyLength;
        try
        {
            bodyLength = putTag(body, bodyLength, tag);
            final long abs = Math.abs(mantissa);
            if (scale > 0 && scale < INT_POWERS_OF_TEN.length && abs >= 0 && abs <= Integer.MAX_VALUE)
            {
                return bodyField(tag, start, putSmallDecimal(mantissa < 0, (int)abs, scale));
            }
            if (scale <= 0)
            {
                bodyLength += body.putLongAscii(bodyLength, mantissa);
            }
            else
            {
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
            return bodyFrom(start);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    private static final int[] INT_POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000};

    /**
     * A price or quantity whose digits fit an int (nearly all), at bodyLength: after one bounds check, the whole part
     * and the fraction two digits at a time, where Agrona's putLongAscii and a division per fraction digit checked
     * every byte. Returns the bytes' sum, for the CheckSum.
     */
    private int putSmallDecimal(final boolean negative, final int abs, final int scale)
    {
        final int divisor = INT_POWERS_OF_TEN[scale];
        final int whole = abs / divisor;
        final int wholeDigits = Ascii.digits(whole);
        final int length = (negative ? 1 : 0) + wholeDigits + 1 + scale;
        body.boundsCheck(bodyLength, length + 1);
        final byte[] array = body.byteArray();
        long address = body.addressOffset() + bodyLength;
        int sum = 0;
        if (negative)
        {
            RawBytes.putByte(array, address++, (byte)'-');
            sum += '-';
        }
        sum += RawBytes.putDigits(array, address, whole, wholeDigits);
        address += wholeDigits;
        RawBytes.putByte(array, address++, (byte)'.');
        sum += RawBytes.putDigits(array, address, abs % divisor, scale) + '.';
        RawBytes.putByte(array, address + scale, Fix.SOH);
        bodyLength += length + 1;
        return sum;
    }

    public MessageEncoder appendTimestamp(final int tag, final long epochNanos, final TimestampPrecision precision)
    {
        final int start = bodyLength;
        try
        {
            bodyLength = putTag(body, bodyLength, tag);
            final TimestampCache timestamp = timestamps[precision.ordinal()];
            bodyLength += timestamp.encode(body, bodyLength, epochNanos);
            body.putByte(bodyLength++, Fix.SOH);
            return bodyField(tag, start, timestamp.lastSum());
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, tag, ex);
        }
    }

    /** Copies complete {@code tag=value<SOH>} fields verbatim into the body. */
    public MessageEncoder appendRaw(final DirectBuffer src, final int offset, final int length)
    {
        final int start = bodyLength;
        src.boundsCheck(offset, length); // so that what the try below catches is this encoder's buffer being full
        try
        {
            body.putBytes(bodyLength, src, offset, length);
            bodyLength += length;
            return bodyFrom(start);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw bodyFull(start, RAW_FIELDS, ex);
        }
    }

    /** An extra header field, written by the session right after the standard header. */
    public MessageEncoder appendHeader(final int tag, final DirectBuffer src, final int offset, final int length)
    {
        final int start = headerLength;
        src.boundsCheck(offset, length); // so that what the try below catches is this encoder's buffer being full
        try
        {
            headerLength = putField(header, headerLength, tag, src, offset, length);
            return headerFrom(start);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw headerFull(start, tag, ex);
        }
    }

    public MessageEncoder appendHeader(final int tag, final CharSequence value)
    {
        final int start = headerLength;
        try
        {
            headerLength = putTag(header, headerLength, tag);
            for (int i = 0, n = value.length(); i < n; i++)
            {
                header.putByte(headerLength++, (byte)value.charAt(i));
            }
            header.putByte(headerLength++, Fix.SOH);
            return headerFrom(start);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw headerFull(start, tag, ex);
        }
    }

    /**
     * A field that does not fit: the body is left as it was before the append (length and sum), so what was built
     * is still a whole message, and the error says which field and how much room there was.
     */
    private IndexOutOfBoundsException bodyFull(final int start, final int tag, final IndexOutOfBoundsException cause)
    {
        bodyLength = start;
        return full("body", start, body.capacity(), tag, cause);
    }

    private IndexOutOfBoundsException headerFull(final int start, final int tag, final IndexOutOfBoundsException cause)
    {
        headerLength = start;
        return full("extra header", start, header.capacity(), tag, cause);
    }

    private static IndexOutOfBoundsException full(final String part, final int used, final int capacity, final int tag,
        final IndexOutOfBoundsException cause)
    {
        final IndexOutOfBoundsException full = new IndexOutOfBoundsException((tag == RAW_FIELDS ? "the raw fields" : "field " + tag) +
            " do" + (tag == RAW_FIELDS ? "" : "es") + " not fit in the message's " + part + ": " + used + " of its " + capacity +
            " bytes are used; the encoder is as it was before this append (a larger MessageEncoder(capacity) holds more)");
        full.initCause(cause);
        return full;
    }

    /**
     * Adds the field "tag=value<SOH>" appended to the body from {@code start} to its sum: the tag's from its table and
     * {@code valueSum} from the append, or read back for a tag outside the table.
     */
    private MessageEncoder bodyField(final int tag, final int start, final int valueSum)
    {
        if (TagBytes.inTables(tag))
        {
            bodySum += TagBytes.sum(tag) + valueSum + Fix.SOH;
            return this;
        }
        return bodyFrom(start);
    }

    /** Adds the bytes appended to the body since {@code start} to its sum, read back: for the less common fields. */
    private MessageEncoder bodyFrom(final int start)
    {
        bodySum += Checksum.compute(body, start, bodyLength - start);
        return this;
    }

    private MessageEncoder headerFrom(final int start)
    {
        headerSum += Checksum.compute(header, start, headerLength - start);
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

    /** The byte sum of the body's bytes (only its low eight bits are meaningful), for the CheckSum. */
    public int bodySum()
    {
        return bodySum;
    }

    public DirectBuffer extraHeader()
    {
        return header;
    }

    /** The byte sum of the extra header's bytes, as {@link #bodySum()}. */
    public int extraHeaderSum()
    {
        return headerSum;
    }

    public int extraHeaderLength()
    {
        return headerLength;
    }

    private static int putTag(final UnsafeBuffer buffer, final int position, final int tag)
    {
        if (TagBytes.fitsWord(tag, position, buffer.capacity()))
        {
            // "tag=" in one store: the word's bytes past it are overwritten by what follows. fitsWord checked the
            // word's bounds, so the store checks nothing again
            RawBytes.putLong(buffer.byteArray(), buffer.addressOffset() + position, TagBytes.word(tag));
            return position + TagBytes.length(tag);
        }
        final int p = position + buffer.putIntAscii(position, tag);
        buffer.putByte(p, Fix.EQUALS);
        return p + 1;
    }

    /** "tag=value<SOH>" with the value copied from {@code src}; returns the position after it. */
    private static int putField(final UnsafeBuffer buffer, final int position, final int tag, final DirectBuffer src,
        final int offset, final int length)
    {
        final int valueStart = putTag(buffer, position, tag);
        buffer.putBytes(valueStart, src, offset, length);
        buffer.putByte(valueStart + length, Fix.SOH);
        return valueStart + length + 1;
    }

    /** A one-character field, "tag=c<SOH>", in one store when the tag is short and the buffer has room. */
    private static int putCharField(final UnsafeBuffer buffer, final int position, final int tag, final byte value)
    {
        if (TagBytes.fitsWord(tag, position, buffer.capacity()))
        {
            final int tagLength = TagBytes.length(tag);
            final long field = TagBytes.word(tag) | (value & 0xFFL) << (tagLength << 3) | (long)Fix.SOH << ((tagLength + 1) << 3);
            RawBytes.putLong(buffer.byteArray(), buffer.addressOffset() + position, field);
            return position + tagLength + 2;
        }
        int p = putTag(buffer, position, tag);
        buffer.putByte(p++, value);
        buffer.putByte(p++, Fix.SOH);
        return p;
    }
}
