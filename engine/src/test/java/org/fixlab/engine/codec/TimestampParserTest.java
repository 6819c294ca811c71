package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The parser that remembers its last second answers exactly as {@link UtcTimestamps#decode}, whatever came before. */
class TimestampParserTest
{
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final String[] FRACTIONS = {"", ".1", ".123", ".999", ".123456", ".000000001", ".", ".12a", ".-12", ".1234567890",
        ",123", "0"};

    @Test
    void agreesWithTheStatelessDecoderOnRunsOfOneSecondAndOnEveryMalformedNeighbour()
    {
        final SplittableRandom random = new SplittableRandom(17);
        final List<String> texts = new ArrayList<>();
        long second = Instant.parse("2026-11-25T23:59:58Z").getEpochSecond();
        for (int run = 0; run < 2_000; run++)
        {
            // mostly the next second (a session's clock), sometimes a jump back or far ahead
            second += random.nextInt(10) == 0 ? random.nextLong(-100_000, 100_000_000) : 1;
            final String prefix = SECOND.format(Instant.ofEpochSecond(second));
            for (int i = random.nextInt(1, 6); i > 0; i--)
            {
                texts.add(prefix + FRACTIONS[random.nextInt(FRACTIONS.length)]);
            }
            // a byte of the remembered second changed: its digits, its separators, its last byte
            final char[] changed = prefix.toCharArray();
            final int at = random.nextInt(changed.length);
            changed[at] = "0123456789-:. x".charAt(random.nextInt(15));
            texts.add(new String(changed) + FRACTIONS[random.nextInt(FRACTIONS.length)]);
            texts.add(prefix.substring(0, random.nextInt(prefix.length())));
        }
        texts.add("20240230-12:00:00"); // 30 February: refused, and not remembered
        texts.add("20240230-12:00:00");
        texts.add("21000229-12:00:00.5");

        final TimestampParser parser = new TimestampParser();
        for (final String text : texts)
        {
            final UnsafeBuffer buffer = FixFrame.buffer("x" + text + "xxxxxxxxxxxxxxxxx");
            assertEquals(UtcTimestamps.decode(buffer, 1, text.length()), parser.decode(buffer, 1, text.length()), text);
        }
    }

    @Test
    void theSameSecondAtAnotherPlaceInAnotherBufferIsRecognisedByItsBytes()
    {
        final TimestampParser parser = new TimestampParser();
        final long noon = Instant.parse("2026-11-25T12:00:00Z").getEpochSecond() * 1_000_000_000L;
        assertEquals(noon + 1_000_000, parser.decode(FixFrame.buffer("20261125-12:00:00.001"), 0, 21));
        assertEquals(noon + 2_000_000, parser.decode(FixFrame.buffer("52=20261125-12:00:00.002"), 3, 21));
        assertEquals(noon + 1_000_000_000L, parser.decode(FixFrame.buffer("20261125-12:00:01"), 0, 17));
        assertEquals(noon + 3_000_000, parser.decode(FixFrame.buffer("..20261125-12:00:00.003"), 2, 21));
    }
}
