package org.fixlab.engine.codec;

/** Fractional-second precision of UTCTimestamp fields (52, 60, 122). */
public enum TimestampPrecision
{
    SECONDS(0),
    MILLIS(3),
    MICROS(6),
    NANOS(9);

    private final int fractionDigits;

    TimestampPrecision(final int fractionDigits)
    {
        this.fractionDigits = fractionDigits;
    }

    public int fractionDigits()
    {
        return fractionDigits;
    }

    /** Length of {@code YYYYMMDD-HH:MM:SS[.fff...]}. */
    public int length()
    {
        return fractionDigits == 0 ? 17 : 18 + fractionDigits;
    }

    /** Parses "seconds", "millis", "micros" or "nanos", in any case, as the configuration names them. */
    public static TimestampPrecision of(final String key)
    {
        for (final TimestampPrecision precision : values())
        {
            if (precision.name().equalsIgnoreCase(key))
            {
                return precision;
            }
        }
        throw new IllegalArgumentException("'" + key + "' is not a precision (expected seconds, millis, micros or nanos)");
    }
}
