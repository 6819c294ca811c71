package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Garbage-free helpers for ASCII numbers and byte comparisons in buffers. */
public final class Ascii
{
    private Ascii()
    {
    }

    public static boolean equals(final DirectBuffer buffer, final int offset, final int length, final byte[] expected)
    {
        if (length != expected.length)
        {
            return false;
        }
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset() + offset;
        for (int i = 0; i < length; i++)
        {
            if (RawBytes.getByte(array, address + i) != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Number of ASCII digits of a non-negative int: comparisons, not a division per digit (the writer asks
     * twice a message, for MsgSeqNum and BodyLength; the division loop was 3.5% of the stream sender's time).
     */
    public static int digits(final int value)
    {
        if (value < 100_000)
        {
            return value < 100 ? (value < 10 ? 1 : 2) : value < 1_000 ? 3 : value < 10_000 ? 4 : 5;
        }
        return value < 10_000_000 ? (value < 1_000_000 ? 6 : 7) : value < 100_000_000 ? 8 : value < 1_000_000_000 ? 9 : 10;
    }

    /** Number of ASCII characters of an int, sign included. */
    public static int length(final int value)
    {
        return value < 0 ? 1 + digits(value == Integer.MIN_VALUE ? Integer.MAX_VALUE : -value) : digits(value);
    }

    /** Writes a non-negative int as exactly {@code width} digits, zero padded. */
    public static void putPadded(final MutableDirectBuffer buffer, final int offset, final int value, final int width)
    {
        buffer.boundsCheck(offset, width);
        RawBytes.putDigits(buffer.byteArray(), buffer.addressOffset() + offset, value, width);
    }

    /** Like {@link #putPadded(MutableDirectBuffer, int, int, int)} for up to 18 digits (decimal fractions). */
    public static void putPadded(final MutableDirectBuffer buffer, final int offset, final long value, final int width)
    {
        long v = value;
        for (int i = offset + width - 1; i >= offset; i--)
        {
            buffer.putByte(i, (byte)('0' + v % 10));
            v /= 10;
        }
    }

    /**
     * Parses a strictly formatted decimal int (optional leading '-', digits only, no more than 10
     * digits, within the int range). Returns {@code invalid} for anything else, never throws. One bounds
     * check and raw reads: the receiver parses MsgSeqNum, the CheckSum and SendingTime's digits with it for
     * every message, and a bounds-checked read before {@link #parseLong}'s own was 5% of its time.
     */
    public static int parseInt(final DirectBuffer buffer, final int offset, final int length, final int invalid)
    {
        if (length > 11)
        {
            return invalid;
        }
        // ten digits reach Integer.MAX_VALUE (a legal MsgSeqNum): parsed as a long, then checked against the range
        final long value = parse(buffer, offset, length, 10);
        return value == NOT_A_NUMBER || value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? invalid : (int)value;
    }

    /** Like {@link #parseInt} for up to 18 digits. */
    public static long parseLong(final DirectBuffer buffer, final int offset, final int length, final long invalid)
    {
        final long value = parse(buffer, offset, length, 18);
        return value == NOT_A_NUMBER ? invalid : value;
    }

    /** What {@link #parse} returns for text that is not a number: no 18 digits reach it. */
    private static final long NOT_A_NUMBER = Long.MIN_VALUE;

    /** An optional '-' and 1 to {@code maxDigits} digits, after one bounds check; {@link #NOT_A_NUMBER} otherwise. */
    private static long parse(final DirectBuffer buffer, final int offset, final int length, final int maxDigits)
    {
        if (length <= 0)
        {
            return NOT_A_NUMBER;
        }
        // one bounds check, then raw reads: a check per byte was most of parsing a MsgSeqNum
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset() + offset;
        final boolean negative = RawBytes.getByte(array, address) == '-';
        int i = negative ? 1 : 0;
        if (i == length || length - i > maxDigits)
        {
            return NOT_A_NUMBER;
        }
        long value = 0;
        for (; i < length; i++)
        {
            final int digit = RawBytes.getByte(array, address + i) - '0';
            if ((digit & 0xFF) > 9)
            {
                return NOT_A_NUMBER;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }
}
