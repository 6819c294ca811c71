package org.fixlab.engine.dictionary;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;

/**
 * Packs a value of up to 7 bytes into a long (length in the top byte), so enum values and MsgTypes
 * can be looked up in primitive-keyed maps straight from the buffer, without a String per message.
 */
final class ShortKeys
{
    static final int MAX_LENGTH = 7;
    static final long NONE = -1L;

    private ShortKeys()
    {
    }

    /** The key of the bytes, or {@link #NONE} if longer than {@link #MAX_LENGTH}. */
    static long of(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length > MAX_LENGTH)
        {
            return NONE;
        }
        long key = (long)length << 56;
        for (int i = 0; i < length; i++)
        {
            key |= (buffer.getByte(offset + i) & 0xFFL) << (8 * i);
        }
        return key;
    }

    static long of(final String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        if (bytes.length > MAX_LENGTH)
        {
            return NONE;
        }
        long key = (long)bytes.length << 56;
        for (int i = 0; i < bytes.length; i++)
        {
            key |= (bytes[i] & 0xFFL) << (8 * i);
        }
        return key;
    }
}
