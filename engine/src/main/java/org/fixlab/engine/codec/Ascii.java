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
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    /** Number of ASCII digits of a non-negative int. */
    public static int digits(final int value)
    {
        int digits = 1;
        int v = value;
        while (v >= 10)
        {
            v /= 10;
            digits++;
        }
        return digits;
    }

    /** Number of ASCII characters of an int, sign included. */
    public static int length(final int value)
    {
        return value < 0 ? 1 + digits(value == Integer.MIN_VALUE ? Integer.MAX_VALUE : -value) : digits(value);
    }

    /** Writes a non-negative int as exactly {@code width} digits, zero padded. */
    public static void putPadded(final MutableDirectBuffer buffer, final int offset, final int value, final int width)
    {
        int v = value;
        for (int i = offset + width - 1; i >= offset; i--)
        {
            buffer.putByte(i, (byte)('0' + v % 10));
            v /= 10;
        }
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
     * Parses a strictly formatted decimal int (optional leading '-', digits only, no more than 9
     * digits). Returns {@code invalid} for anything else, never throws.
     */
    public static int parseInt(final DirectBuffer buffer, final int offset, final int length, final int invalid)
    {
        final int digits = length > 0 && buffer.getByte(offset) == '-' ? length - 1 : length;
        if (digits > 10)
        {
            return invalid;
        }
        // ten digits reach Integer.MAX_VALUE (a legal MsgSeqNum); beyond the int range is invalid
        final long value = parseLong(buffer, offset, length, Long.MIN_VALUE);
        return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? invalid : (int)value;
    }

    /** Like {@link #parseInt} for up to 18 digits. */
    public static long parseLong(final DirectBuffer buffer, final int offset, final int length, final long invalid)
    {
        if (length <= 0)
        {
            return invalid;
        }
        int i = offset;
        final int end = offset + length;
        boolean negative = false;
        if (buffer.getByte(i) == '-')
        {
            negative = true;
            i++;
        }
        if (i == end || end - i > 18)
        {
            return invalid;
        }
        long value = 0;
        for (; i < end; i++)
        {
            final int digit = buffer.getByte(i) - '0';
            if (digit < 0 || digit > 9)
            {
                return invalid;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }
}
