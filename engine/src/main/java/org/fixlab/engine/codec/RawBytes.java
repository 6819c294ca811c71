package org.fixlab.engine.codec;

import static org.agrona.UnsafeAccess.UNSAFE;

import java.nio.ByteOrder;

import org.agrona.BufferUtil;

/**
 * Stores and loads at a raw address ({@code array} and {@code address} as Agrona's buffers give them:
 * a byte[] and its offset, or null and a native address), for codec loops that checked the bounds of
 * the whole range once. A DirectBuffer checks every access; on the sender's path those checks were a
 * tenth of building and framing a message. Multi-byte values are little-endian on every platform.
 */
final class RawBytes
{
    static final long ARRAY_BASE = BufferUtil.ARRAY_BASE_OFFSET;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private RawBytes()
    {
    }

    static void putByte(final Object array, final long address, final byte value)
    {
        UNSAFE.putByte(array, address, value);
    }

    static void putShort(final Object array, final long address, final short value)
    {
        UNSAFE.putShort(array, address, LITTLE_ENDIAN ? value : Short.reverseBytes(value));
    }

    static void putInt(final Object array, final long address, final int value)
    {
        UNSAFE.putInt(array, address, LITTLE_ENDIAN ? value : Integer.reverseBytes(value));
    }

    static void putLong(final Object array, final long address, final long value)
    {
        UNSAFE.putLong(array, address, LITTLE_ENDIAN ? value : Long.reverseBytes(value));
    }

    static long getLong(final Object array, final long address)
    {
        final long value = UNSAFE.getLong(array, address);
        return LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }

    /** In native order: for comparing bytes, not for reading a number. */
    static int getInt(final Object array, final long address)
    {
        return UNSAFE.getInt(array, address);
    }

    /** In native order: for comparing bytes, not for reading a number. */
    static short getShort(final Object array, final long address)
    {
        return UNSAFE.getShort(array, address);
    }

    static byte getByte(final Object array, final long address)
    {
        return UNSAFE.getByte(array, address);
    }

    /** Copies a whole byte[] to the address. */
    static void put(final Object array, final long address, final byte[] source)
    {
        copy(source, ARRAY_BASE, array, address, source.length);
    }

    /** Copies up to this many bytes a word at a time; longer copies go to Unsafe.copyMemory. */
    private static final int WORD_COPY_LIMIT = 64;

    /**
     * Copies {@code length} bytes between ranges that do not overlap. From 8 to 64 bytes, a word at a time, the last
     * word ending at the last byte (overlapping the one before rather than a byte loop for the rest). The parts of a
     * header are that short, and copying them from the heap into a connection's direct buffer with Unsafe.copyMemory
     * was a quarter of framing a message on the stream's sending thread.
     */
    static void copy(final Object fromArray, final long fromAddress, final Object toArray, final long toAddress, final int length)
    {
        if (length < Long.BYTES || length > WORD_COPY_LIMIT)
        {
            UNSAFE.copyMemory(fromArray, fromAddress, toArray, toAddress, length);
            return;
        }
        final int lastWord = length - Long.BYTES;
        for (int i = 0; i < lastWord; i += Long.BYTES)
        {
            UNSAFE.putLong(toArray, toAddress + i, UNSAFE.getLong(fromArray, fromAddress + i));
        }
        UNSAFE.putLong(toArray, toAddress + lastWord, UNSAFE.getLong(fromArray, fromAddress + lastWord));
    }

    /**
     * A non-negative int as exactly {@code width} ASCII digits, zero padded; with {@link Ascii#digits} as the width,
     * the plain number. Two digits per division, from a table: half the dependent divisions of a digit at a time (a
     * timestamp's six fraction digits were an eighth of formatting a message log line). Returns the sum of the bytes
     * written, for a CheckSum.
     */
    static int putDigits(final Object array, final long address, final int value, final int width)
    {
        int v = value;
        int sum = 0;
        long at = address + width;
        while (at - address >= 2)
        {
            final int quotient = v / 100;
            final int pair = v - quotient * 100;
            at -= 2;
            putShort(array, at, DIGIT_PAIRS[pair]);
            sum += DIGIT_PAIR_SUMS[pair];
            v = quotient;
        }
        if (at > address)
        {
            final int digit = '0' + v % 10;
            UNSAFE.putByte(array, address, (byte)digit);
            sum += digit;
        }
        return sum;
    }

    /** The widest number {@link #putDigitsInWord} writes in one word. */
    static final int WORD_DIGITS = 8;
    private static final long ASCII_ZEROS = 0x3030303030303030L;
    private static final long LOW_7_BITS_OF_EACH_HALF = 0x7FL << 32 | 0x7FL;
    private static final long LOW_4_BITS_OF_EACH_QUARTER = 0xFL << 48 | 0xFL << 32 | 0xFL << 16 | 0xFL;

    /**
     * As {@link #putDigits}, but with one store of eight bytes when the number has at most {@link #WORD_DIGITS}
     * digits: the bytes after the digits, up to eight from {@code address}, are overwritten with zeros, so the
     * caller writes what follows afterwards and has room for the whole word. Why: the division loop is a chain of
     * dependent multiplications per digit pair, and framing a message writes three numbers (BodyLength, MsgSeqNum,
     * an order's ClOrdID); here a number costs one division and a few multiplications, none of them in a loop.
     * Returns the sum of the digits' bytes, for a CheckSum (the zeros after them add nothing).
     */
    static int putDigitsInWord(final Object array, final long address, final int value, final int width)
    {
        if (width > WORD_DIGITS)
        {
            return putDigits(array, address, value, width);
        }
        final long digits = eightDigits(value) >>> ((WORD_DIGITS - width) << 3);
        putLong(array, address, digits);
        return Checksum.ofWord(digits);
    }

    /**
     * The eight ASCII digits of a value below 100,000,000, zero padded, as the little-endian word that stores them in
     * order: split into two halves of four digits (one division), each half into two pairs and each pair into two
     * digits by multiplying every lane of the word at once with a reciprocal that is exact for the lane's range
     * (10486 / 2^20 for n / 100 below 10,000; 103 / 2^10 for n / 10 below 100). No lane's product reaches the next.
     */
    static long eightDigits(final int value)
    {
        final long high = value / 10_000;
        final long halves = high | (value - high * 10_000) << 32;
        final long hundreds = (halves * 10486 >>> 20) & LOW_7_BITS_OF_EACH_HALF;
        final long pairs = (halves - hundreds * 100) << 16 | hundreds;
        final long tens = (pairs * 103 >>> 10) & LOW_4_BITS_OF_EACH_QUARTER;
        return ((pairs - tens * 10) << 8 | tens) + ASCII_ZEROS;
    }

    /** "00" to "99" as the little-endian shorts {@link #putShort} stores: the tens digit first. */
    private static final short[] DIGIT_PAIRS = new short[100];
    /** The byte sum of each of {@link #DIGIT_PAIRS}. */
    private static final byte[] DIGIT_PAIR_SUMS = new byte[100];

    static
    {
        for (int i = 0; i < 100; i++)
        {
            DIGIT_PAIRS[i] = (short)(('0' + i % 10) << 8 | ('0' + i / 10));
            DIGIT_PAIR_SUMS[i] = (byte)('0' + i % 10 + '0' + i / 10); // 96 to 114
        }
    }
}
