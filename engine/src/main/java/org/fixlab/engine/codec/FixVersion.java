package org.fixlab.engine.codec;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;

/** The BeginString(8) values the engine speaks. */
public enum FixVersion
{
    FIX42("FIX.4.2"),
    FIX44("FIX.4.4");

    private final String beginString;
    private final byte[] bytes;

    FixVersion(final String beginString)
    {
        this.beginString = beginString;
        this.bytes = beginString.getBytes(StandardCharsets.US_ASCII);
    }

    public String beginString()
    {
        return beginString;
    }

    public byte[] bytes()
    {
        return bytes;
    }

    /** The version whose BeginString equals the given bytes, or null. Garbage-free. */
    public static FixVersion match(final DirectBuffer buffer, final int offset, final int length)
    {
        for (final FixVersion version : VALUES)
        {
            if (Ascii.equals(buffer, offset, length, version.bytes))
            {
                return version;
            }
        }
        return null;
    }

    public static FixVersion of(final String beginString)
    {
        for (final FixVersion version : VALUES)
        {
            if (version.beginString.equals(beginString))
            {
                return version;
            }
        }
        throw new IllegalArgumentException("unsupported BeginString '" + beginString + "' (expected FIX.4.2 or FIX.4.4)");
    }

    private static final FixVersion[] VALUES = values();
}
