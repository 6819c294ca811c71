package org.fixlab.engine.codec;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** UTCTimestamp encoding and decoding against java.time, over random instants and the calendar's corners. */
class UtcTimestampsTest
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    static long epochNanos(final Instant instant)
    {
        return instant.getEpochSecond() * NANOS_PER_SECOND + instant.getNano();
    }

    private static DateTimeFormatter formatter(final TimestampPrecision precision)
    {
        final String fraction = precision.fractionDigits() == 0 ? "" : "." + "S".repeat(precision.fractionDigits());
        return DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss" + fraction).withZone(ZoneOffset.UTC);
    }

    private static ChronoUnit unit(final TimestampPrecision precision)
    {
        switch (precision)
        {
            case SECONDS:
                return ChronoUnit.SECONDS;
            case MILLIS:
                return ChronoUnit.MILLIS;
            case MICROS:
                return ChronoUnit.MICROS;
            default:
                return ChronoUnit.NANOS;
        }
    }

    /** The corners: the epoch, leap days (including 2000, a leap century), 2100 (not a leap year), ends of years. */
    private static List<Instant> instants()
    {
        final List<Instant> instants = new ArrayList<>(List.of(
            Instant.parse("1970-01-01T00:00:00Z"),
            Instant.parse("1969-12-31T23:59:59.999999999Z"),
            Instant.parse("1900-03-01T00:00:00Z"),
            Instant.parse("2000-02-29T12:34:56.789012345Z"),
            Instant.parse("2024-02-29T23:59:59.999999999Z"),
            Instant.parse("2024-03-01T00:00:00Z"),
            Instant.parse("2100-02-28T23:59:59.5Z"),
            Instant.parse("2100-03-01T00:00:00.000000001Z"),
            Instant.parse("2099-12-31T23:59:59.999Z"),
            // the ends of what a long of epoch nanoseconds can hold
            Instant.parse("2262-04-11T23:47:16.854775807Z"),
            Instant.parse("1677-09-21T00:12:43.145224193Z")));
        final SplittableRandom random = new SplittableRandom(2024);
        final long from = Instant.parse("1900-01-01T00:00:00Z").getEpochSecond();
        final long to = Instant.parse("2200-01-01T00:00:00Z").getEpochSecond();
        for (int i = 0; i < 5_000; i++)
        {
            instants.add(Instant.ofEpochSecond(random.nextLong(from, to), random.nextLong(NANOS_PER_SECOND)));
        }
        return instants;
    }

    @ParameterizedTest
    @EnumSource(TimestampPrecision.class)
    void encodesLikeJavaTime(final TimestampPrecision precision)
    {
        final DateTimeFormatter format = formatter(precision);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (final Instant instant : instants())
        {
            final int length = UtcTimestamps.encode(buffer, 3, epochNanos(instant), precision);
            assertEquals(precision.length(), length);
            assertEquals(format.format(instant), buffer.getStringWithoutLengthAscii(3, length), instant::toString);
        }
    }

    @ParameterizedTest
    @EnumSource(TimestampPrecision.class)
    void decodesWhatJavaTimeWritesToTheInstantTruncatedToThePrecision(final TimestampPrecision precision)
    {
        final DateTimeFormatter format = formatter(precision);
        for (final Instant instant : instants())
        {
            final String text = format.format(instant);
            final UnsafeBuffer buffer = FixFrame.buffer("x" + text + "x");
            assertEquals(epochNanos(instant.truncatedTo(unit(precision))), UtcTimestamps.decode(buffer, 1, text.length()), text);
        }
    }

    @Test
    void decodesAnyNumberOfFractionDigitsUpToNine()
    {
        final long second = epochNanos(Instant.parse("2024-02-29T12:00:00Z"));
        assertEquals(second + 500_000_000L, decode("20240229-12:00:00.5"));
        assertEquals(second + 120_000_000L, decode("20240229-12:00:00.12"));
        assertEquals(second + 123_450_000L, decode("20240229-12:00:00.12345"));
        assertEquals(second + 1L, decode("20240229-12:00:00.000000001"));
    }

    @Test
    void aLeapSecondIsAcceptedAsTheFirstSecondOfTheNextMinute()
    {
        assertEquals(epochNanos(Instant.parse("2016-12-31T23:59:59Z")) + NANOS_PER_SECOND, decode("20161231-23:59:60"));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {
        "",
        "20240229",
        "20240229-12:00",
        "20240229-12:00:0",              // 16 characters
        "20240229-12:00:00.",            // a point without digits
        "20240229-12:00:00.1234567890",  // ten fraction digits
        "20240229-12:00:00,123",
        "20240229 12:00:00",
        "20240229-12-00:00",
        "20240229-12:00-00",
        "2024-229-12:00:00",
        "20241329-12:00:00",             // month 13
        "20240029-12:00:00",             // month 0
        "20240200-12:00:00",             // day 0
        "20240132-12:00:00",             // day 32
        "20240230-12:00:00",             // 30 February
        "20230229-12:00:00",             // 29 February of a common year
        "21000229-12:00:00",             // 2100 is not a leap year
        "20240431-12:00:00",             // 31 April
        "20240229-24:00:00",
        "20240229-12:60:00",
        "20240229-12:00:61",
        "2024022a-12:00:00",
        "-0240229-12:00:00",
        "20240229-12:00:00.-12",
        "20240229-12:00:00.+12",
        "20240229-12:00:00.12a",
    })
    void rejectsMalformedTimestamps(final String text)
    {
        assertEquals(UtcTimestamps.INVALID, decode(text));
    }

    @Test
    void checksDatesAndTimesOfDay()
    {
        final LocalDateTime anyDay = LocalDateTime.of(2024, 2, 29, 0, 0);
        final UnsafeBuffer date = FixFrame.buffer(anyDay.format(DateTimeFormatter.BASIC_ISO_DATE));
        assertTrue(UtcTimestamps.isDate(date, 0, 8));
        assertFalse(UtcTimestamps.isDate(FixFrame.buffer("20241301"), 0, 8));
        assertFalse(UtcTimestamps.isDate(FixFrame.buffer("2024021"), 0, 7));
        assertTrue(UtcTimestamps.isTimeOnly(FixFrame.buffer("23:59:59"), 0, 8));
        assertTrue(UtcTimestamps.isTimeOnly(FixFrame.buffer("23:59:59.123"), 0, 12));
        assertFalse(UtcTimestamps.isTimeOnly(FixFrame.buffer("24:00:00"), 0, 8));
        assertFalse(UtcTimestamps.isTimeOnly(FixFrame.buffer("23:59:59."), 0, 9));
    }

    private static long decode(final String text)
    {
        return UtcTimestamps.decode(FixFrame.buffer(text), 0, text.length());
    }
}
