package org.fixlab.engine.codec;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

/** CheckSum(10): the sum of every byte before the 10= field, modulo 256. */
public final class Checksum
{
    private static final long LOW_BYTES = 0x00FF00FF00FF00FFL;

    private Checksum()
    {
    }

    /**
     * Sums eight bytes at a time (SIMD within a register): a message of 100 bytes costs a dozen
     * additions instead of a hundred bounds-checked byte reads. Byte order does not matter for a sum.
     */
    public static int compute(final DirectBuffer buffer, final int offset, final int length)
    {
        long pairs = 0;
        int i = offset;
        final int end = offset + length;
        // each 16-bit lane collects at most 255 * 2 per long; 128 longs keep every lane below 65536
        while (end - i >= 8)
        {
            long lanes = 0;
            for (int n = 0; n < 128 && end - i >= 8; n++, i += 8)
            {
                final long word = buffer.getLong(i, ByteOrder.LITTLE_ENDIAN);
                lanes += (word & LOW_BYTES) + ((word >>> 8) & LOW_BYTES);
            }
            pairs += (lanes & 0xFFFFL) + ((lanes >>> 16) & 0xFFFFL) + ((lanes >>> 32) & 0xFFFFL) + (lanes >>> 48);
        }
        int sum = (int)pairs;
        for (; i < end; i++)
        {
            sum += buffer.getByte(i);
        }
        return sum & 0xFF;
    }

    /** The byte sum of an array, for parts of a header that never change. */
    public static int sum(final byte[] bytes)
    {
        int sum = 0;
        for (final byte b : bytes)
        {
            sum += b;
        }
        return sum;
    }
}
