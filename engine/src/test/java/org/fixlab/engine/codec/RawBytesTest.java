package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /** The word's eight digits for every value at a boundary of a lane's range and for a million random ones. */
    @Test
    void eightDigitsAreTheZeroPaddedDecimalOfEveryValueBelowAHundredMillion()
    {
        final SplittableRandom random = new SplittableRandom(8);
        final UnsafeBuffer word = new UnsafeBuffer(new byte[8]);
        final int[] edges = {0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 10_099, 99_999, 100_000, 999_999, 1_000_000,
            9_999_999, 10_000_000, 99_989_999, 99_999_999};
        for (int i = 0; i < 1_000_000 + edges.length; i++)
        {
            final int value = i < edges.length ? edges[i] : random.nextInt(100_000_000);
            word.putLong(0, RawBytes.eightDigits(value), java.nio.ByteOrder.LITTLE_ENDIAN);
            assertEquals(String.format("%08d", value), word.getStringWithoutLengthAscii(0, 8), "value " + value);
        }
    }

    /** Every width from 1 to 10 (10 past the word), at every alignment: the digits, and nothing before them touched. */
    @Test
    void digitsInAWordAreTheNumberPaddedToItsWidth()
    {
        final SplittableRandom random = new SplittableRandom(10);
        final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        for (int width = 1; width <= 10; width++)
        {
            for (int at = 0; at < 8; at++)
            {
                for (int n = 0; n < 1_000; n++)
                {
                    final long limit = (long)Math.pow(10, width);
                    final int value = (int)Math.min(Integer.MAX_VALUE, n == 0 ? limit - 1 : n == 1 ? 0 : random.nextLong(limit));
                    out.setMemory(0, 64, (byte)'#');
                    final int sum = RawBytes.putDigitsInWord(null, out.addressOffset() + 8 + at, value, width);
                    final String expected = "#".repeat(8 + at) + String.format("%0" + width + "d", value);
                    assertEquals(expected, out.getStringWithoutLengthAscii(0, 8 + at + width), "width " + width + " value " + value);
                    assertEquals(Checksum.compute(out, 8 + at, width), sum & 0xFF, "the sum returned, for CheckSum");
                }
            }
        }
    }
}
