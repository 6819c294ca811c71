package org.fixlab.engine.dictionary;

import org.agrona.DirectBuffer;

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
                // QuickFIX/J checks eight digits and no ranges.
                return length == 8 && allDigits(buffer, offset, 8);
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

    /**
     * UTCTimeOnly as QuickFIX/J 2.3.2 parses it: 8, 12, 15, 18 or 21 characters, HH:MM:S at the start
     * and, when longer, ".SSS" - its lenient SimpleDateFormat reads no further and checks no ranges.
     */
    static boolean isTimeOnly(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != 8 && length != 12 && length != 15 && length != 18 && length != 21)
        {
            return false;
        }
        return allDigits(buffer, offset, 2) && buffer.getByte(offset + 2) == ':' && allDigits(buffer, offset + 3, 2) &&
            buffer.getByte(offset + 5) == ':' && allDigits(buffer, offset + 6, 1) &&
            (length == 8 || (allDigits(buffer, offset + 7, 1) && buffer.getByte(offset + 8) == '.' && allDigits(buffer, offset + 9, 3)));
    }

    /**
     * UTCTimestamp syntax: YYYYMMDD-HH:MM:SS with no fraction or 3, 6, 9 or 12 fraction digits.
     * Like QuickFIX/J 2.3.2, only the shape is checked, not the ranges (month 13 passes); the
     * session's SendingTime check uses {@code UtcTimestamps.decode}, which is stricter.
     */
    static boolean isTimestamp(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != 17 && length != 21 && length != 24 && length != 27 && length != 30)
        {
            return false;
        }
        return allDigits(buffer, offset, 8) && buffer.getByte(offset + 8) == '-' &&
            allDigits(buffer, offset + 9, 2) && buffer.getByte(offset + 11) == ':' &&
            allDigits(buffer, offset + 12, 2) && buffer.getByte(offset + 14) == ':' &&
            allDigits(buffer, offset + 15, 2) &&
            (length == 17 || (buffer.getByte(offset + 17) == '.' && allDigits(buffer, offset + 18, length - 18)));
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
