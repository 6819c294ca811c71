package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class AsciiTest
{
    /** Every int at and next to a power of ten and of two, and random ones: as many digits as its decimal text. */
    @Test
    void digitsCountsTheDecimalDigitsOfEveryNonNegativeInt()
    {
        final java.util.List<Integer> values = new java.util.ArrayList<>(java.util.List.of(0, Integer.MAX_VALUE));
        for (long power = 1; power <= Integer.MAX_VALUE; power *= 10)
        {
            values.addAll(java.util.List.of((int)power - 1, (int)power, (int)Math.min(power + 1, Integer.MAX_VALUE)));
        }
        for (int bit = 0; bit < 31; bit++)
        {
            values.addAll(java.util.List.of((1 << bit) - 1, 1 << bit, (1 << bit) + 1));
        }
        new SplittableRandom(20261127).ints(100_000, 0, Integer.MAX_VALUE).forEach(values::add);
        for (final int value : values)
        {
            assertEquals(Integer.toString(value).length(), Ascii.digits(value), () -> "digits of " + value);
            assertEquals(Integer.toString(-value).length(), Ascii.length(-value), () -> "length of " + -value);
        }
        assertEquals(11, Ascii.length(Integer.MIN_VALUE));
    }

    private static final int INVALID = 12345;

    /** What parseInt promises: an optional '-', one to ten digits, within the int range; anything else is invalid. */
    private static int reference(final String text)
    {
        if (!text.matches("-?[0-9]{1,10}"))
        {
            return INVALID;
        }
        final long value = Long.parseLong(text);
        return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? INVALID : (int)value;
    }

    private static int parse(final String text)
    {
        // the text sits between other digits, which must not be read as part of it
        final byte[] bytes = ("77" + text + "77").getBytes(StandardCharsets.ISO_8859_1);
        return Ascii.parseInt(new UnsafeBuffer(bytes), 2, text.length(), INVALID);
    }

    @Test
    void parseIntReadsTheEdgesOfTheIntRange()
    {
        assertEquals(0, parse("0"));
        assertEquals(0, parse("-0"));
        assertEquals(7, parse("0000000007"));
        assertEquals(Integer.MAX_VALUE, parse("2147483647"));
        assertEquals(Integer.MIN_VALUE, parse("-2147483648"));
        assertEquals(INVALID, parse("2147483648"));
        assertEquals(INVALID, parse("-2147483649"));
        assertEquals(INVALID, parse("99999999999"));
        assertEquals(INVALID, parse(""));
        assertEquals(INVALID, parse("-"));
        assertEquals(INVALID, parse("--1"));
        assertEquals(INVALID, parse("+1"));
        assertEquals(INVALID, parse("1-"));
        assertEquals(INVALID, parse(" 1"));
    }

    @Test
    void parseIntAgreesWithTheReferenceOnRandomTexts()
    {
        final SplittableRandom random = new SplittableRandom(20261126);
        final String alphabet = "0123456789-+ /:a\u0000\u00ff";
        for (int n = 0; n < 200_000; n++)
        {
            final StringBuilder text = new StringBuilder();
            final int length = random.nextInt(13);
            final boolean digitsOnly = random.nextBoolean();
            for (int i = 0; i < length; i++)
            {
                text.append(digitsOnly && !(i == 0 && random.nextInt(4) == 0)
                    ? (char)('0' + random.nextInt(10)) : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertEquals(reference(text.toString()), parse(text.toString()), text.toString());
            assertEquals(reference(text.toString()), parseWithRoom(text.toString(), random.nextInt(10)), text.toString());
        }
    }

    /**
     * The text with {@code room} digits after it in the buffer: from eight bytes on from its start, up to eight digits
     * are read as one word (the bytes after the text inside it must not count).
     */
    private static int parseWithRoom(final String text, final int room)
    {
        final byte[] bytes = ("7" + text + "7".repeat(room)).getBytes(StandardCharsets.ISO_8859_1);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final long asLong = Ascii.parseLong(buffer, 1, text.length(), Long.MIN_VALUE);
        final int asInt = Ascii.parseInt(buffer, 1, text.length(), INVALID);
        assertEquals(text.matches("-?[0-9]{1,18}") ? Long.parseLong(text) : Long.MIN_VALUE, asLong, "parseLong " + text);
        return asInt;
    }

    /**
     * equals against Arrays.equals: every length from 0 to 40 (the word, int, short and byte cases and their overlapping
     * last reads), equal bytes and one byte different at each place, a different length, in a heap and a direct
     * buffer at every alignment, with the bytes around the range different so that a read past it would be caught.
     */
    @Test
    void equalsComparesExactlyTheRangeWhateverItsLengthAndAlignment()
    {
        final SplittableRandom random = new SplittableRandom(20261127);
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer direct = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(64));
        for (final UnsafeBuffer buffer : java.util.List.of(heap, direct))
        {
            for (int length = 0; length <= 40; length++)
            {
                for (int offset = 0; offset < 8; offset++)
                {
                    final byte[] expected = new byte[length];
                    random.nextBytes(expected);
                    buffer.setMemory(0, buffer.capacity(), (byte)~expected.length);
                    buffer.putBytes(offset, expected);
                    final int at = offset;
                    final int n = length;
                    assertEquals(true, Ascii.equals(buffer, offset, length, expected), () -> n + " equal bytes at " + at);
                    if (length > 0)
                    {
                        assertEquals(false, Ascii.equals(buffer, offset, length - 1, expected), () -> "one byte shorter");
                    }
                    for (int i = 0; i < length; i++)
                    {
                        final byte[] different = expected.clone();
                        different[i] ^= (byte)(1 << random.nextInt(8));
                        final int place = i;
                        assertEquals(false, Ascii.equals(buffer, offset, length, different),
                            () -> n + " bytes at " + at + ", byte " + place + " different");
                    }
                }
            }
        }
    }
}
