package org.fixlab.engine.codec;

/**
 * "tag=" of every tag below {@link #LIMIT} as the little-endian word an encoder stores in one write
 * (at most five bytes: four digits and '='), and its length: a tag costs one load and one store
 * instead of a digit loop of bounds-checked byte writes.
 */
final class TagBytes
{
    /** Every standard FIX 4.2 / 4.4 tag is below this; larger ones (user-defined) take the digit loop. */
    static final int LIMIT = 10_000;

    private static final long[] WORDS = new long[LIMIT];
    private static final byte[] LENGTHS = new byte[LIMIT];
    /**
     * The byte sum of "tag=", for a CheckSum kept as fields are written: the sum of the tag's word, kept in a table
     * like the word, so that a field costs a load rather than a multiplication on the sum's chain. (The two measured
     * alike under codec-ab, within what an A/A run of the same code spreads.)
     */
    private static final short[] SUMS = new short[LIMIT];

    static
    {
        for (int tag = 0; tag < LIMIT; tag++)
        {
            final String text = tag + "=";
            WORDS[tag] = littleEndian(text);
            LENGTHS[tag] = (byte)text.length();
            SUMS[tag] = (short)Checksum.ofWord(WORDS[tag]);
        }
    }

    private TagBytes()
    {
    }

    /** Up to eight ASCII characters as the little-endian word that stores them in order in one write. */
    static long littleEndian(final String text)
    {
        long word = 0;
        for (int i = 0; i < text.length(); i++)
        {
            word |= (long)text.charAt(i) << (i << 3);
        }
        return word;
    }

    /** Whether "tag=" and what follows may be stored as one word at {@code position}. */
    static boolean fitsWord(final int tag, final int position, final int capacity)
    {
        return inTables(tag) && position <= capacity - Long.BYTES;
    }

    static long word(final int tag)
    {
        return WORDS[tag];
    }

    static int length(final int tag)
    {
        return LENGTHS[tag];
    }

    /** Whether {@link #word}, {@link #length} and {@link #sum} know the tag. */
    static boolean inTables(final int tag)
    {
        return tag >= 0 && tag < LIMIT;
    }

    /** The byte sum of "tag=" (see {@link #SUMS}). */
    static int sum(final int tag)
    {
        return SUMS[tag];
    }
}
