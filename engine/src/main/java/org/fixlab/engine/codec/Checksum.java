package org.fixlab.engine.codec;

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
        buffer.boundsCheck(offset, length);
        return compute(buffer.byteArray(), buffer.addressOffset() + offset, length);
    }

    /** The same over memory whose bounds the caller checked: a byte[] and an offset in it, or null and an address. */
    static int compute(final Object array, final long address, final int length)
    {
        long pairs = 0;
        long i = address;
        final long end = address + length;
        // each 16-bit lane collects at most 255 * 2 per long; 128 longs keep every lane below 65536
        while (end - i >= 8)
        {
            long lanes = 0;
            for (int n = 0; n < 128 && end - i >= 8; n++, i += 8)
            {
                final long word = RawBytes.getLong(array, i);
                lanes += lanes(word);
            }
            pairs += (lanes & 0xFFFFL) + ((lanes >>> 16) & 0xFFFFL) + ((lanes >>> 32) & 0xFFFFL) + (lanes >>> 48);
        }
        final int tail = (int)(end - i);
        if (tail > 0 && length >= 8)
        {
            // the last one to seven bytes: the eight ending at the end, with the bytes already summed shifted out
            final long word = RawBytes.getLong(array, end - 8) >>> ((8 - tail) << 3);
            final long lanes = lanes(word);
            pairs += (lanes & 0xFFFFL) + ((lanes >>> 16) & 0xFFFFL) + ((lanes >>> 32) & 0xFFFFL) + (lanes >>> 48);
            return (int)pairs & 0xFF;
        }
        int sum = (int)pairs;
        for (; i < end; i++)
        {
            sum += RawBytes.getByte(array, i);
        }
        return sum & 0xFF;
    }

    /**
     * Copies {@code length} bytes between ranges that do not overlap and returns their sum (to be taken modulo 256),
     * in one pass: what an encoder copies from a decoded message it need not read back for the CheckSum. Up to 64
     * bytes a word at a time, the last word ending at the last byte (its bytes copied before are copied again, and
     * shifted out of the sum); below eight a byte at a time; longer ones are copied, then summed.
     */
    static int copySummed(final Object fromArray, final long fromAddress, final Object toArray, final long toAddress,
        final int length)
    {
        if (length < Long.BYTES)
        {
            int sum = 0;
            for (int i = 0; i < length; i++)
            {
                final byte b = RawBytes.getByte(fromArray, fromAddress + i);
                RawBytes.putByte(toArray, toAddress + i, b);
                sum += b & 0xFF;
            }
            return sum;
        }
        if (length > WORD_SUM_LIMIT)
        {
            RawBytes.copy(fromArray, fromAddress, toArray, toAddress, length);
            return compute(toArray, toAddress, length);
        }
        // each 16-bit lane collects at most 2 * 255 per word: eight words and the last one stay far below 65536
        long lanes = 0;
        final int lastWord = length - Long.BYTES;
        int i = 0;
        for (; i < lastWord; i += Long.BYTES)
        {
            final long word = RawBytes.getLong(fromArray, fromAddress + i);
            RawBytes.putLong(toArray, toAddress + i, word);
            lanes += lanes(word);
        }
        final long last = RawBytes.getLong(fromArray, fromAddress + lastWord);
        RawBytes.putLong(toArray, toAddress + lastWord, last);
        final long notYetSummed = last >>> ((i - lastWord) << 3);
        lanes += lanes(notYetSummed);
        return sumOfLanes(lanes);
    }

    /** The longest copy {@link #copySummed} sums a word at a time. */
    private static final int WORD_SUM_LIMIT = 64;

    /**
     * The sum of a word's eight bytes (each 0 to 255): adjacent bytes are added into four 16-bit lanes, and one
     * multiplication adds the lanes into the top sixteen bits (at most 2,040: no lane carries into the next). For the
     * numbers a writer stores as one word, whose CheckSum it adds without reading them back.
     */
    static int ofWord(final long word)
    {
        return sumOfLanes(lanes(word));
    }

    /** A word's bytes added in pairs, into four 16-bit lanes (each at most 2 * 255). */
    private static long lanes(final long word)
    {
        return (word & LOW_BYTES) + ((word >>> 8) & LOW_BYTES);
    }

    /** The four lanes added by one multiplication into the top sixteen bits: for lanes whose total stays below 65536. */
    private static int sumOfLanes(final long lanes)
    {
        return (int)((lanes * 0x0001000100010001L) >>> 48);
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
