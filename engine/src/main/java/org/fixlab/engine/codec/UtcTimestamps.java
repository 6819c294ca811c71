package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * UTCTimestamp ({@code YYYYMMDD-HH:MM:SS[.sss[sss[sss]]]}) encoding and decoding on epoch
 * nanoseconds, without allocation. Dates use the proleptic Gregorian calendar (Howard Hinnant's
 * days-from-civil algorithm), so no java.time objects are created per message.
 */
public final class UtcTimestamps
{
    public static final long INVALID = Long.MIN_VALUE;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SECONDS_PER_DAY = 86_400L;

    private UtcTimestamps()
    {
    }

    /** Writes the timestamp at {@code offset}; returns the number of bytes written. */
    public static int encode(final MutableDirectBuffer buffer, final int offset, final long epochNanos, final TimestampPrecision precision)
    {
        final long epochSeconds = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        final long nanoOfSecond = Math.floorMod(epochNanos, NANOS_PER_SECOND);
        final long epochDay = Math.floorDiv(epochSeconds, SECONDS_PER_DAY);
        final int secondOfDay = (int)Math.floorMod(epochSeconds, SECONDS_PER_DAY);

        // civil-from-days
        final long z = epochDay + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final int day = (int)(doy - (153 * mp + 2) / 5 + 1);
        final int month = (int)(mp < 10 ? mp + 3 : mp - 9);
        final int year = (int)(yoe + era * 400 + (month <= 2 ? 1 : 0));

        Ascii.putPadded(buffer, offset, year, 4);
        Ascii.putPadded(buffer, offset + 4, month, 2);
        Ascii.putPadded(buffer, offset + 6, day, 2);
        buffer.putByte(offset + 8, (byte)'-');
        Ascii.putPadded(buffer, offset + 9, secondOfDay / 3600, 2);
        buffer.putByte(offset + 11, (byte)':');
        Ascii.putPadded(buffer, offset + 12, (secondOfDay / 60) % 60, 2);
        buffer.putByte(offset + 14, (byte)':');
        Ascii.putPadded(buffer, offset + 15, secondOfDay % 60, 2);
        final int digits = precision.fractionDigits();
        if (digits == 0)
        {
            return 17;
        }
        buffer.putByte(offset + 17, (byte)'.');
        long fraction = nanoOfSecond;
        for (int i = digits; i < 9; i++)
        {
            fraction /= 10;
        }
        Ascii.putPadded(buffer, offset + 18, (int)fraction, digits);
        return 18 + digits;
    }

    /**
     * Parses a UTCTimestamp with 0, 3, 6 or 9 fraction digits (FIX allows any of them on input) into
     * epoch nanoseconds; {@link #INVALID} for anything malformed.
     */
    public static long decode(final DirectBuffer buffer, final int offset, final int length)
    {
        if (!hasTimestampLength(buffer, offset, length))
        {
            return INVALID;
        }
        final long second = secondNanos(buffer, offset);
        return second == INVALID ? INVALID : plusFraction(second, buffer, offset, length);
    }

    /** 17 bytes, or 19 to 27 with a '.' at 17: the shape of a UTCTimestamp, before its digits are read. */
    static boolean hasTimestampLength(final DirectBuffer buffer, final int offset, final int length)
    {
        return length == 17 || (length >= 19 && length <= 27 && buffer.getByte(offset + 17) == '.');
    }

    /** The first 17 bytes, {@code YYYYMMDD-HH:MM:SS}, as the epoch nanoseconds of that second; {@link #INVALID} if malformed. */
    static long secondNanos(final DirectBuffer buffer, final int offset)
    {
        if (buffer.getByte(offset + 8) != '-' || buffer.getByte(offset + 11) != ':' || buffer.getByte(offset + 14) != ':')
        {
            return INVALID;
        }
        final int year = Ascii.parseInt(buffer, offset, 4, -1);
        final int month = Ascii.parseInt(buffer, offset + 4, 2, -1);
        final int day = Ascii.parseInt(buffer, offset + 6, 2, -1);
        final int hour = Ascii.parseInt(buffer, offset + 9, 2, -1);
        final int minute = Ascii.parseInt(buffer, offset + 12, 2, -1);
        final int second = Ascii.parseInt(buffer, offset + 15, 2, -1);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 ||
            minute < 0 || minute > 59 || second < 0 || second > 60)
        {
            return INVALID;
        }
        // days-from-civil
        final int y = month <= 2 ? year - 1 : year;
        final long era = Math.floorDiv(y, 400);
        final long yoe = y - era * 400;
        final long doy = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        final long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        final long epochDay = era * 146_097 + doe - 719_468;
        final long seconds = epochDay * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second;
        return seconds * NANOS_PER_SECOND;
    }

    /**
     * {@code secondNanos} plus the fraction after the '.' of a timestamp of {@link #hasTimestampLength} (none when
     * the length is 17); {@link #INVALID} if the fraction is not all digits.
     */
    static long plusFraction(final long secondNanos, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length == 17)
        {
            return secondNanos;
        }
        final int fractionDigits = length - 18;
        final int fraction = Ascii.parseInt(buffer, offset + 18, fractionDigits, -1);
        if (fraction < 0 || buffer.getByte(offset + 18) == '-')
        {
            return INVALID;
        }
        long nanos = fraction;
        for (int i = fractionDigits; i < 9; i++)
        {
            nanos *= 10;
        }
        return secondNanos + nanos;
    }

    /**
     * Checked so that 30 February is refused rather than read as 1 March (days-from-civil counts
     * on past the end of a month).
     */
    private static int daysInMonth(final int year, final int month)
    {
        if (month == 2)
        {
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** UTCDateOnly / LocalMktDate check used by data-format validation: YYYYMMDD. */
    public static boolean isDate(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != 8)
        {
            return false;
        }
        final int month = Ascii.parseInt(buffer, offset + 4, 2, -1);
        final int day = Ascii.parseInt(buffer, offset + 6, 2, -1);
        return Ascii.parseInt(buffer, offset, 4, -1) >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }

    /** UTCTimeOnly check: HH:MM:SS[.sss...]. */
    public static boolean isTimeOnly(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != 8 && (length < 10 || length > 18))
        {
            return false;
        }
        if (buffer.getByte(offset + 2) != ':' || buffer.getByte(offset + 5) != ':')
        {
            return false;
        }
        final int hour = Ascii.parseInt(buffer, offset, 2, -1);
        final int minute = Ascii.parseInt(buffer, offset + 3, 2, -1);
        final int second = Ascii.parseInt(buffer, offset + 6, 2, -1);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60)
        {
            return false;
        }
        return length == 8 || (buffer.getByte(offset + 8) == '.' && Ascii.parseInt(buffer, offset + 9, length - 9, -1) >= 0);
    }
}
