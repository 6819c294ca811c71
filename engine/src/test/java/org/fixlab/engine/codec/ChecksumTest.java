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

    /**
     * copySummed copies exactly the range (the bytes around it in the destination stay as they were) and returns the
     * bytes' sum modulo 256 like the definition: every length from 0 to 200 (byte, word and long copies), from a heap
     * array into a direct buffer and the other way, at every alignment, with bytes of every value.
     */
    @Test
    void copySummedCopiesExactlyTheRangeAndSumsItsBytes()
    {
        final SplittableRandom random = new SplittableRandom(20261127);
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[512]);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(512));
        for (final boolean heapToDirect : new boolean[] {true, false})
        {
            final UnsafeBuffer from = heapToDirect ? heap : direct;
            final UnsafeBuffer to = heapToDirect ? direct : heap;
            for (int length = 0; length <= 200; length++)
            {
                for (int alignment = 0; alignment < 8; alignment++)
                {
                    final byte[] bytes = new byte[length];
                    random.nextBytes(bytes);
                    final int fromOffset = 16 + alignment;
                    final int toOffset = 40 + random.nextInt(8);
                    from.putBytes(fromOffset, bytes);
                    to.setMemory(0, to.capacity(), (byte)0x5A);
                    final int sum = Checksum.copySummed(from.byteArray(), from.addressOffset() + fromOffset, to.byteArray(),
                        to.addressOffset() + toOffset, length);
                    final int n = length;
                    assertEquals(definition(from, fromOffset, length), sum & 0xFF, () -> "sum of " + n + " bytes");
                    final byte[] copied = new byte[length];
                    to.getBytes(toOffset, copied);
                    assertEquals(java.util.Arrays.toString(bytes), java.util.Arrays.toString(copied), () -> n + " bytes copied");
                    assertEquals(0x5A, to.getByte(toOffset - 1) & 0xFF, () -> "the byte before " + n + " copied");
                    assertEquals(0x5A, to.getByte(toOffset + length) & 0xFF, () -> "the byte after " + n + " copied");
                }
            }
        }
    }
}
