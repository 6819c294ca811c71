package org.fixlab.engine.codec;

/**
 * Tests of the eight bytes of a long at once, the first byte of a message in the lowest byte, for loops that read a
 * message a word at a time. Each test answers with the high bit of every byte it flags; the lowest flag is the first
 * such byte ({@code Long.numberOfTrailingZeros(flags) >>> 3}).
 */
public final class ByteWords
{
    /** 0x01 in every byte: a byte value times this is that value in every byte. */
    public static final long ONES = 0x0101010101010101L;
    public static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;
    public static final long HIGH_BITS = 0x8080808080808080L;

    private ByteWords()
    {
    }

    /**
     * The high bit of each byte of {@code word} equal to {@code value}, every one of them exactly. The seven low bits
     * of each byte are added to 0x7F on their own, so no byte carries into the next: the well-known {@code (x - ONES) &
     * ~x} borrows, and also flags a byte just above a match that differs from the value in its lowest bit only (a NUL
     * above a SOH), so only its lowest flag is right. Where every flag is used (a word rewritten byte by byte, the flags
     * of several tests combined), this is the test.
     */
    public static long equalBytes(final long word, final int value)
    {
        final long zeroWhereEqual = word ^ (ONES * (value & 0xFF));
        return ~(((zeroWhereEqual & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | zeroWhereEqual) & HIGH_BITS;
    }
}
