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

    static byte getByte(final Object array, final long address)
    {
        return UNSAFE.getByte(array, address);
    }

    /** Copies a whole byte[] to the address. */
    static void put(final Object array, final long address, final byte[] source)
    {
        UNSAFE.copyMemory(source, ARRAY_BASE, array, address, source.length);
    }

    static void copy(final Object fromArray, final long fromAddress, final Object toArray, final long toAddress, final int length)
    {
        UNSAFE.copyMemory(fromArray, fromAddress, toArray, toAddress, length);
    }

    /**
     * A non-negative int as exactly {@code width} ASCII digits, zero padded; with {@link Ascii#digits} as the width,
     * the plain number.
     */
    static void putDigits(final Object array, final long address, final int value, final int width)
    {
        int v = value;
        for (long at = address + width - 1; at >= address; at--)
        {
            final int quotient = v / 10;
            UNSAFE.putByte(array, at, (byte)('0' + v - quotient * 10));
            v = quotient;
        }
    }
}
