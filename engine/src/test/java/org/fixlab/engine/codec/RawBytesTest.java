package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class RawBytesTest
{
    /**
     * Every length from 0 to 80 (below, across and above the word-at-a-time range), at every alignment of source and
     * destination, heap to direct memory as a connection's outbound buffer takes a header and heap to heap: exactly
     * the bytes asked for arrive, and not one byte around them changes.
     */
    @Test
    void copiesExactlyTheBytesAskedForAndNothingAroundThem()
    {
        final SplittableRandom random = new SplittableRandom(20261126);
        final byte[] source = new byte[128];
        random.nextBytes(source);
        for (final boolean direct : new boolean[] {true, false})
        {
            final UnsafeBuffer destination = direct ? new UnsafeBuffer(ByteBuffer.allocateDirect(128)) : new UnsafeBuffer(new byte[128]);
            for (int length = 0; length <= 80; length++)
            {
                for (int from = 0; from < 8; from++)
                {
                    for (int to = 0; to < 8; to++)
                    {
                        destination.setMemory(0, destination.capacity(), (byte)0x5A);
                        RawBytes.copy(source, RawBytes.ARRAY_BASE + from, destination.byteArray(), destination.addressOffset() + to,
                            length);
                        final byte[] expected = new byte[128];
                        java.util.Arrays.fill(expected, (byte)0x5A);
                        System.arraycopy(source, from, expected, to, length);
                        final byte[] actual = new byte[128];
                        destination.getBytes(0, actual);
                        assertArrayEquals(expected, actual, "length " + length + " from " + from + " to " + to + " direct " + direct);
                    }
                }
            }
        }
    }
}
