package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;

/**
 * Finds message boundaries in an inbound byte stream the way FIX engines conventionally do: find
 * {@code 8=}, read BodyLength(9), expect {@code 10=nnn<SOH>} right after the body. A frame whose
 * CheckSum is not where BodyLength says is garbled: the bytes up to the end of the claimed body are
 * dropped and the search resumes at the next {@code 8=FIX}, as QuickFIX/J does, so one bad length
 * costs at most the messages it overlaps.
 */
public final class MessageFramer
{
    public static final int NEED_MORE = 0;
    public static final int FRAME = 1;
    public static final int GARBLED = 2;
    /** BodyLength larger than the configured maximum message size: the connection cannot be trusted. */
    public static final int TOO_LARGE = 3;

    private static final int TRAILER_LENGTH = 7; // 10=nnn<SOH>

    private final int maxMessageSize;
    private int frameStart;
    private int frameLength;
    private int resumeAt;

    public MessageFramer(final int maxMessageSize)
    {
        this.maxMessageSize = maxMessageSize;
    }

    /**
     * Scans {@code [offset, end)}. On FRAME the message is {@link #frameStart()}..+{@link #frameLength()};
     * on every result {@link #resumeAt()} says how far the caller may discard (bytes before it are done).
     */
    public int scan(final DirectBuffer buffer, final int offset, final int end)
    {
        // one bounds check for the bytes at hand, then raw reads (every read below is inside them; none when there
        // are no bytes, and the search below answers NEED_MORE)
        if (end > offset)
        {
            buffer.boundsCheck(offset, end - offset);
        }
        final byte[] array = buffer.byteArray();
        final long base = buffer.addressOffset();
        if (end - offset >= FIX4_HEAD_BYTES && RawBytes.getLong(array, base + offset) == FIX4_BEGIN)
        {
            final int result = scanFix4(array, base, offset, end);
            if (result != UNUSUAL)
            {
                return result;
            }
        }
        final int start = seekBeginString(array, base, offset, end);
        frameStart = start;
        frameLength = 0;
        if (start < 0)
        {
            // keep a possible partial "8=FIX" at the tail
            resumeAt = Math.max(offset, end - 4);
            frameStart = resumeAt;
            return NEED_MORE;
        }
        resumeAt = start;
        int position = start + 2;
        while (position < end && RawBytes.getByte(array, base + position) != Fix.SOH)
        {
            position++;
        }
        if (position + 3 > end)
        {
            return NEED_MORE;
        }
        position++;
        if (RawBytes.getByte(array, base + position) != '9' || RawBytes.getByte(array, base + position + 1) != '=')
        {
            resumeAt = start + 1;
            return GARBLED;
        }
        position += 2;
        // long: ten digits fit the digit limit but not an int, and a wrapped (negative) length would
        // point the trailer check before the buffer
        long bodyLength = 0;
        int digits = 0;
        byte b;
        while (position < end && (b = RawBytes.getByte(array, base + position)) != Fix.SOH)
        {
            final int digit = b - '0';
            if (digit < 0 || digit > 9 || digits > 9)
            {
                resumeAt = start + 1;
                return GARBLED;
            }
            bodyLength = bodyLength * 10 + digit;
            digits++;
            position++;
        }
        if (position == end)
        {
            return NEED_MORE;
        }
        if (digits == 0)
        {
            resumeAt = start + 1;
            return GARBLED;
        }
        final int bodyStart = position + 1;
        final long total = (long)bodyStart - start + bodyLength + TRAILER_LENGTH;
        if (total > maxMessageSize)
        {
            resumeAt = start + 1;
            return TOO_LARGE;
        }
        final int trailer = bodyStart + (int)bodyLength;
        if (trailer + TRAILER_LENGTH > end)
        {
            return NEED_MORE;
        }
        // the body ends with the SOH of its last field: without it that field runs into the CheckSum
        final long at = base + trailer;
        if (RawBytes.getByte(array, at - 1) != Fix.SOH || RawBytes.getByte(array, at) != '1' ||
            RawBytes.getByte(array, at + 1) != '0' || RawBytes.getByte(array, at + 2) != '=' ||
            RawBytes.getByte(array, at + TRAILER_LENGTH - 1) != Fix.SOH)
        {
            resumeAt = trailer;
            return GARBLED;
        }
        frameLength = trailer + TRAILER_LENGTH - start;
        resumeAt = trailer + TRAILER_LENGTH;
        return FRAME;
    }

    /** The first eight bytes of a FIX 4.x message, "8=FIX.4.", as {@link RawBytes#getLong} reads them. */
    private static final long FIX4_BEGIN = 0x2E342E5849463D38L;
    /** BeginString's version digit, SOH, then "9=": the low four bytes of the next word, the digit left out. */
    private static final int SOH_NINE_EQUALS = 0x3D390100;
    /** "8=FIX.4.n", SOH, "9=" and a word of BodyLength: what {@link #scanFix4} reads before the body. */
    private static final int FIX4_HEAD_BYTES = 20;
    /** The trailer from the body's last SOH, "SOH10=nnnSOH", its digits left out (they are checked with the sum). */
    private static final long TRAILER = 0x010000003D303101L;
    private static final long TRAILER_MASK = 0xFF000000FFFFFFFFL;
    /** What {@link #scanFix4} answers for a frame the byte-by-byte scan must judge. */
    private static final int UNUSUAL = -1;

    /**
     * The common frame, a FIX 4.x message at {@code start} with a BodyLength of one to four digits, in a few words
     * instead of a byte at a time: the bytes after "8=FIX.4." are one int compared, BodyLength's end is the first SOH
     * of one word and its digits are checked and converted together (as {@link Ascii} parses a number), and the
     * trailer's fixed bytes are one masked compare. The same answers as the byte-by-byte scan, which judges
     * everything else ({@link #UNUSUAL}): another BeginString, a longer or garbled BodyLength, a frame too large, no
     * CheckSum where BodyLength says.
     */
    private int scanFix4(final byte[] array, final long base, final int start, final int end)
    {
        final long at = base + start;
        if (((int)RawBytes.getLong(array, at + 8) & 0xFFFFFF00) != SOH_NINE_EQUALS)
        {
            return UNUSUAL;
        }
        final long lengthWord = RawBytes.getLong(array, at + 12);
        final int digits = Long.numberOfTrailingZeros(ByteWords.equalBytes(lengthWord, Fix.SOH)) >>> 3;
        final long values = lengthWord ^ Ascii.ZERO_DIGITS;
        final long digitBytes = (1L << (digits << 3)) - 1;
        if (digits - 1 > 3 || (Ascii.notDigits(values) & digitBytes) != 0)
        {
            return UNUSUAL; // no digits, more than four, or a byte that is not one
        }
        final int bodyLength = (int)Ascii.eightDigits((values & digitBytes) << ((Long.BYTES - digits) << 3));
        final int bodyStart = start + 12 + digits + 1;
        final int trailer = bodyStart + bodyLength;
        if (trailer + TRAILER_LENGTH - start > maxMessageSize)
        {
            return UNUSUAL;
        }
        frameStart = start;
        resumeAt = start;
        frameLength = 0;
        if (trailer + TRAILER_LENGTH > end)
        {
            return NEED_MORE;
        }
        if ((RawBytes.getLong(array, base + trailer - 1) & TRAILER_MASK) != TRAILER)
        {
            return UNUSUAL;
        }
        frameLength = trailer + TRAILER_LENGTH - start;
        resumeAt = trailer + TRAILER_LENGTH;
        return FRAME;
    }

    /** Reads the three CheckSum digits of a framed message, -1 if they are not digits. */
    public static int declaredChecksum(final DirectBuffer buffer, final int frameStart, final int frameLength)
    {
        final int at = frameStart + frameLength - 4;
        buffer.boundsCheck(at, 3);
        final long address = buffer.addressOffset() + at;
        final byte[] array = buffer.byteArray();
        final int hundreds = RawBytes.getByte(array, address) - '0';
        final int tens = RawBytes.getByte(array, address + 1) - '0';
        final int ones = RawBytes.getByte(array, address + 2) - '0';
        return isDigit(hundreds) && isDigit(tens) && isDigit(ones) ? hundreds * 100 + tens * 10 + ones : -1;
    }

    /** A byte minus '0' that was a digit: below '0' it is negative, which the mask makes large. */
    private static boolean isDigit(final int valueOfDigit)
    {
        return (valueOfDigit & 0xFF) <= 9;
    }

    /** True when the frame's CheckSum field matches its bytes. */
    public static boolean checksumValid(final DirectBuffer buffer, final int frameStart, final int frameLength)
    {
        final int declared = declaredChecksum(buffer, frameStart, frameLength);
        return declared >= 0 && declared == Checksum.compute(buffer, frameStart, frameLength - TRAILER_LENGTH);
    }

    public int frameStart()
    {
        return frameStart;
    }

    public int frameLength()
    {
        return frameLength;
    }

    public int resumeAt()
    {
        return resumeAt;
    }

    private static int seekBeginString(final byte[] array, final long base, final int offset, final int end)
    {
        for (int i = offset; i + 4 < end; i++)
        {
            final long at = base + i;
            if (RawBytes.getByte(array, at) == '8' && RawBytes.getByte(array, at + 1) == '=' &&
                RawBytes.getByte(array, at + 2) == 'F' && RawBytes.getByte(array, at + 3) == 'I' &&
                RawBytes.getByte(array, at + 4) == 'X')
            {
                // "8=FIX" must start a field: at the stream start or right after an SOH
                if (i == offset || RawBytes.getByte(array, at - 1) == Fix.SOH)
                {
                    return i;
                }
            }
        }
        return -1;
    }
}
