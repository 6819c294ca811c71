package org.fixlab.engine.dictionary;

import org.agrona.DirectBuffer;
import org.fixlab.engine.codec.UtcTimestamps;

/**
 * Value syntax checks, in place and garbage-free, accepting exactly what QuickFIX/J 2.3.2's field
 * converters accept (so that "Incorrect data format for value" rejects are the same).
 */
final class FieldFormats
{
    private FieldFormats()
    {
    }

    static boolean isValid(final FieldType.Format format, final DirectBuffer buffer, final int offset, final int length)
    {
        switch (format)
        {
            case INT:
                return isInt(buffer, offset, length);
            case DECIMAL:
                return isDecimal(buffer, offset, length);
            case BOOLEAN:
                return length == 1 && (buffer.getByte(offset) == 'Y' || buffer.getByte(offset) == 'N');
            case CHAR:
                return length == 1;
            case UTC_DATE:
                return UtcTimestamps.isDate(buffer, offset, length) && allDigits(buffer, offset, 8);
            case UTC_TIME_ONLY:
                return isTimeOnly(buffer, offset, length);
            case UTC_TIMESTAMP:
                return isTimestamp(buffer, offset, length);
            default:
                return true;
        }
    }

    /** Optional '-', then digits only, within int range; leading zeros allowed (Integer.parseInt). */
    static boolean isInt(final DirectBuffer buffer, final int offset, final int length)
    {
        final int end = offset + length;
        int i = offset;
        final boolean negative = length > 0 && buffer.getByte(i) == '-';
        if (negative)
        {
            i++;
        }
        if (i == end)
        {
            return false;
        }
        long value = 0;
        for (; i < end; i++)
        {
            final int digit = buffer.getByte(i) - '0';
            if (digit < 0 || digit > 9)
            {
                return false;
            }
            value = value * 10 + digit;
            if (value > (negative ? 2_147_483_648L : Integer.MAX_VALUE))
            {
                return false;
            }
        }
        return true;
    }

    /** Optional '-' (never '+'), digits with at most one '.', and at least one digit. */
    static boolean isDecimal(final DirectBuffer buffer, final int offset, final int length)
    {
        final int end = offset + length;
        int i = offset;
        if (length > 0 && buffer.getByte(i) == '-')
        {
            i++;
        }
        boolean dot = false;
        boolean digit = false;
        for (; i < end; i++)
        {
            final byte b = buffer.getByte(i);
            if (b == '.' && !dot)
            {
                dot = true;
            }
            else if (b >= '0' && b <= '9')
            {
                digit = true;
            }
            else
            {
                return false;
            }
        }
        return digit;
    }

    /** HH:MM:SS with no fraction or 3, 6 or 9 fraction digits. */
    static boolean isTimeOnly(final DirectBuffer buffer, final int offset, final int length)
    {
        return (length == 8 || length == 12 || length == 15 || length == 18) &&
            UtcTimestamps.isTimeOnly(buffer, offset, length) &&
            allDigits(buffer, offset, 2) && allDigits(buffer, offset + 3, 2) && allDigits(buffer, offset + 6, 2) &&
            (length == 8 || allDigits(buffer, offset + 9, length - 9));
    }

    /** YYYYMMDD-HH:MM:SS with no fraction or 3, 6 or 9 fraction digits. */
    static boolean isTimestamp(final DirectBuffer buffer, final int offset, final int length)
    {
        return (length == 17 || length == 21 || length == 24 || length == 27) &&
            UtcTimestamps.decode(buffer, offset, length) != UtcTimestamps.INVALID &&
            allDigits(buffer, offset, 8) && (length == 17 || allDigits(buffer, offset + 18, length - 18));
    }

    private static boolean allDigits(final DirectBuffer buffer, final int offset, final int length)
    {
        for (int i = offset, end = offset + length; i < end; i++)
        {
            final byte b = buffer.getByte(i);
            if (b < '0' || b > '9')
            {
                return false;
            }
        }
        return true;
    }
}
