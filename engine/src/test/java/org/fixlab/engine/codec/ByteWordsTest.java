package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class ByteWordsTest
{
    /** Every byte value at every place of a word, with words around it that a borrow or a carry would confuse. */
    @Test
    void flagsExactlyTheBytesEqualToTheValue()
    {
        final SplittableRandom random = new SplittableRandom(42);
        final int[] values = {0x00, 0x01, '|', '\\', '=', 0x7F, 0x80, 0xFF};
        for (final int value : values)
        {
            for (int place = 0; place < 8; place++)
            {
                for (int other = 0; other < 256; other++)
                {
                    // the value at one place, a byte one above/below it or anything else elsewhere
                    long word = ByteWords.ONES * other;
                    word = withByte(word, place, value);
                    assertFlags(word, value);
                    assertFlags(withByte(word, (place + 1) % 8, (value + 1) & 0xFF), value);
                    assertFlags(withByte(word, (place + 7) % 8, (value - 1) & 0xFF), value);
                }
            }
            for (int i = 0; i < 100_000; i++)
            {
                long word = random.nextLong();
                for (int place = 0; place < 8; place++)
                {
                    if (random.nextInt(3) == 0)
                    {
                        word = withByte(word, place, value + random.nextInt(3) - 1 & 0xFF);
                    }
                }
                assertFlags(word, value);
            }
        }
    }

    private static void assertFlags(final long word, final int value)
    {
        long expected = 0;
        for (int place = 0; place < 8; place++)
        {
            if ((word >>> (place * 8) & 0xFF) == value)
            {
                expected |= 0x80L << (place * 8);
            }
        }
        assertEquals(Long.toHexString(expected), Long.toHexString(ByteWords.equalBytes(word, value)),
            () -> "0x" + Long.toHexString(word) + " against " + value);
    }

    private static long withByte(final long word, final int place, final int value)
    {
        return word & ~(0xFFL << (place * 8)) | (long)value << (place * 8);
    }
}
