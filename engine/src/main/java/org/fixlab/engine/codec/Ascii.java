package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Garbage-free helpers for ASCII numbers and byte comparisons in buffers. */
public final class Ascii
{
    private Ascii()
    {
    }

    /**
     * Whether the bytes at {@code offset} are {@code expected}'s. A word at a time, the last word ending at the last
     * byte (overlapping the one before); below eight bytes two ints or two shorts that overlap the same way. The
     * receiver compares BeginString, SenderCompID and TargetCompID of every message, and the byte loop was a tenth of
     * its work outside the split.
     */
    public static boolean equals(final DirectBuffer buffer, final int offset, final int length, final byte[] expected)
    {
        if (length != expected.length)
        {
            return false;
        }
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset() + offset;
        final long expectedAddress = RawBytes.ARRAY_BASE;
        if (length >= Long.BYTES)
        {
            final int lastWord = length - Long.BYTES;
            for (int i = 0; i < lastWord; i += Long.BYTES)
            {
                if (RawBytes.getLong(array, address + i) != RawBytes.getLong(expected, expectedAddress + i))
                {
                    return false;
                }
            }
            return RawBytes.getLong(array, address + lastWord) == RawBytes.getLong(expected, expectedAddress + lastWord);
        }
        if (length >= Integer.BYTES)
        {
            final int last = length - Integer.BYTES;
            return RawBytes.getInt(array, address) == RawBytes.getInt(expected, expectedAddress) &&
                RawBytes.getInt(array, address + last) == RawBytes.getInt(expected, expectedAddress + last);
        }
        if (length >= Short.BYTES)
        {
            final int last = length - Short.BYTES;
            return RawBytes.getShort(array, address) == RawBytes.getShort(expected, expectedAddress) &&
                RawBytes.getShort(array, address + last) == RawBytes.getShort(expected, expectedAddress + last);
        }
        return length == 0 || RawBytes.getByte(array, address) == expected[0];
    }

    /**
     * Number of ASCII digits of a non-negative int, without a branch: the position of its highest bit picks an entry
     * of {@link #DIGITS_BY_HIGHEST_BIT}, and adding the value to it carries into the high half exactly when the value
     * reaches the next power of ten (D. Lemire's method). Comparisons against each power of ten were as fast, but
     * the JIT compiles a branch never taken yet as a trap: the first MsgSeqNum of 10,000, then of 100,000, 1,000,000...
     * threw every compiled method that writes a number back to the interpreter until it was compiled again (25
     * deoptimizations in a run of 200,000 round trips, -XX:+LogCompilation). A value below zero gives a wrong count:
     * callers pass sequence numbers, lengths and non-negative values only.
     */
    public static int digits(final int value)
    {
        return (int)((value + DIGITS_BY_HIGHEST_BIT[31 - Integer.numberOfLeadingZeros(value | 1)]) >>> 32);
    }

    /**
     * For the ints whose highest bit is bit k: their number of digits d (that of 2^k) in the high half, less the
     * next power of ten T where some of them reach it, so that adding one of them carries one more digit in exactly
     * when it is at least T.
     */
    private static final long[] DIGITS_BY_HIGHEST_BIT = new long[32];

    static
    {
        for (int bit = 0; bit < 32; bit++)
        {
            final long lowest = 1L << bit;
            final long highest = (1L << (bit + 1)) - 1;
            int digits = 1;
            long nextPowerOfTen = 10;
            while (nextPowerOfTen <= lowest)
            {
                digits++;
                nextPowerOfTen *= 10;
            }
            DIGITS_BY_HIGHEST_BIT[bit] = highest >= nextPowerOfTen
                ? ((long)(digits + 1) << 32) - nextPowerOfTen
                : (long)digits << 32;
        }
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

    /** '0' in each byte: a word of ASCII digits XOR this is a word of digit values. */
    static final long ZERO_DIGITS = 0x3030303030303030L;

    /** The high bit of each byte that is not 0 to 9 (a byte minus '0', by XOR), exactly: no byte carries into another. */
    static long notDigits(final long digits)
    {
        return (((digits & 0x7F7F7F7F7F7F7F7FL) + 0x7676767676767676L) | digits) & 0x8080808080808080L;
    }

    /**
     * Eight digit values, the first (most significant) in the lowest byte, as a number: adjacent digits, then pairs,
     * then fours combined by three multiplications instead of eight dependent multiply-adds.
     */
    static long eightDigits(final long digits)
    {
        final long pairs = (digits * (10 * 256 + 1)) >>> 8 & 0x00FF00FF00FF00FFL;
        final long fours = (pairs * (100 * 65536 + 1)) >>> 16 & 0x0000FFFF0000FFFFL;
        return (fours * (10000L * (1L << 32) + 1)) >>> 32;
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
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset() + offset;
        if (length <= Long.BYTES && length <= maxDigits && offset >= 0 && buffer.capacity() - offset >= Long.BYTES)
        {
            // up to eight digits from one word, when the buffer has eight bytes from the value on: the receiver
            // parses every MsgSeqNum, and the digit loop's chain of multiply-adds and per-digit branches cost the
            // throughput stream a tenth of its orders a second (5.16M -> 5.73M, fixlab-engine jar A/B, 5 of 5)
            final long digits = RawBytes.getLong(array, address) ^ ZERO_DIGITS;
            final long valueBytes = -1L >>> ((Long.BYTES - length) << 3);
            if ((notDigits(digits) & valueBytes) == 0)
            {
                return eightDigits((digits & valueBytes) << ((Long.BYTES - length) << 3));
            }
        }
        // one bounds check, then raw reads: a check per byte was most of parsing a MsgSeqNum
        buffer.boundsCheck(offset, length);
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
