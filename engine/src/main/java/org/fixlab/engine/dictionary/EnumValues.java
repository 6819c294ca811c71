package org.fixlab.engine.dictionary;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.fixlab.engine.codec.Ascii;

/** The enumerated values of one field, checked in place against the buffer. */
final class EnumValues
{
    private final LongHashSet shortValues = new LongHashSet();
    private final byte[][] longValues;
    private final boolean allowOtherValues;
    private final Set<String> values;

    EnumValues(final Set<String> values, final boolean allowOtherValues)
    {
        this.values = Collections.unmodifiableSet(new LinkedHashSet<>(values));
        this.allowOtherValues = allowOtherValues;
        int longCount = 0;
        for (final String value : values)
        {
            final long key = ShortKeys.of(value);
            if (key == ShortKeys.NONE)
            {
                longCount++;
            }
            else
            {
                shortValues.add(key);
            }
        }
        longValues = new byte[longCount][];
        int i = 0;
        for (final String value : values)
        {
            if (ShortKeys.of(value) == ShortKeys.NONE)
            {
                longValues[i++] = value.getBytes(StandardCharsets.ISO_8859_1);
            }
        }
    }

    Set<String> values()
    {
        return values;
    }

    /**
     * Whether the value is allowed. A multiple-value field is a space-separated list in which every
     * item must be allowed; like QuickFIX/J's {@code split(" ")}, trailing spaces are ignored and
     * any other empty item is invalid.
     */
    boolean isAllowed(final DirectBuffer buffer, final int offset, final int length, final boolean multipleValue)
    {
        if (allowOtherValues)
        {
            return true;
        }
        if (!multipleValue)
        {
            return contains(buffer, offset, length);
        }
        int end = offset + length;
        while (end > offset && buffer.getByte(end - 1) == ' ')
        {
            end--;
        }
        if (end == offset)
        {
            // "" splits into one empty item, all-spaces into none
            return length > 0 || contains(buffer, offset, 0);
        }
        int itemStart = offset;
        for (int i = offset; i <= end; i++)
        {
            if (i == end || buffer.getByte(i) == ' ')
            {
                if (!contains(buffer, itemStart, i - itemStart))
                {
                    return false;
                }
                itemStart = i + 1;
            }
        }
        return true;
    }

    private boolean contains(final DirectBuffer buffer, final int offset, final int length)
    {
        final long key = ShortKeys.of(buffer, offset, length);
        if (key != ShortKeys.NONE)
        {
            return shortValues.contains(key);
        }
        for (final byte[] value : longValues)
        {
            if (Ascii.equals(buffer, offset, length, value))
            {
                return true;
            }
        }
        return false;
    }
}
