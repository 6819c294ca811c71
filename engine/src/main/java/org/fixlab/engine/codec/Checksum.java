package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;

/** CheckSum(10): the sum of every byte before the 10= field, modulo 256. */
public final class Checksum
{
    private Checksum()
    {
    }

    public static int compute(final DirectBuffer buffer, final int offset, final int length)
    {
        int sum = 0;
        for (int i = offset, end = offset + length; i < end; i++)
        {
            sum += buffer.getByte(i);
        }
        return sum & 0xFF;
    }
}
