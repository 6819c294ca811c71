package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The word-at-a-time CheckSum against the byte-by-byte definition, on every length and alignment it has a branch for. */
class ChecksumTest
{
    private static int definition(final UnsafeBuffer buffer, final int offset, final int length)
    {
        int sum = 0;
        for (int i = offset; i < offset + length; i++)
        {
            sum += buffer.getByte(i) & 0xFF;
        }
        return sum & 0xFF;
    }

    @Test
    void everyLengthAndOffsetMatchesTheByteSum()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (final UnsafeBuffer buffer : new UnsafeBuffer[] {new UnsafeBuffer(new byte[2200]),
            new UnsafeBuffer(ByteBuffer.allocateDirect(2200))})
        {
            for (int i = 0; i < buffer.capacity(); i++)
            {
                buffer.putByte(i, (byte)random.nextInt(256)); // bytes above 0x7F too: they are negative as Java bytes
            }
            // past 1,024 bytes the 16-bit lanes are folded (every 128 words); the tail is read as one word ending at the end
            for (final int length : new int[] {0, 1, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 123, 1023, 1024, 1025, 1031, 2048, 2055})
            {
                for (int offset = 0; offset < 9; offset++)
                {
                    assertEquals(definition(buffer, offset, length), Checksum.compute(buffer, offset, length),
                        () -> "length " + length + " at " + buffer.capacity());
                }
            }
            // the last bytes of the buffer: the tail word must not reach past them
            assertEquals(definition(buffer, 2190, 10), Checksum.compute(buffer, 2190, 10));
            assertEquals(definition(buffer, 2187, 13), Checksum.compute(buffer, 2187, 13));
        }
    }

    @Test
    void aRangeOutsideTheBufferIsRefused()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        assertThrows(IndexOutOfBoundsException.class, () -> Checksum.compute(buffer, 60, 8));
    }

    @Test
    void aWordsSumIsTheSumOfItsEightBytes()
    {
        final SplittableRandom random = new SplittableRandom(8);
        for (int n = 0; n < 100_000; n++)
        {
            final long word = n == 0 ? -1L : n == 1 ? 0L : random.nextLong();
            int expected = 0;
            for (int b = 0; b < 8; b++)
            {
                expected += (int)(word >>> (b << 3)) & 0xFF;
            }
            assertEquals(expected, Checksum.ofWord(word), () -> Long.toHexString(word));
        }
    }
}
