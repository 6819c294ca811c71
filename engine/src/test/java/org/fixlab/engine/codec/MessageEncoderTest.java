package org.fixlab.engine.codec;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The encoder (the application's part of a message) framed by the writer (header and trailer):
 * every written message is parsed back and its BodyLength and CheckSum recomputed independently.
 */
class MessageEncoderTest
{
    private static final Instant SENDING_INSTANT = Instant.parse("2024-02-29T23:59:58.123456789Z");
    private static final long SENDING_TIME = UtcTimestampsTest.epochNanos(SENDING_INSTANT);
    private static final String SENDING_TIME_MILLIS = "20240229-23:59:58.123";

    private final MessageEncoder encoder = new MessageEncoder(1024);
    private final MessageWriter writer = new MessageWriter(FixVersion.FIX44, "ISLD", "TW", TimestampPrecision.MILLIS);
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);

    /** Writes at a non-zero offset so that offset arithmetic is exercised; checks the predicted length. */
    private FixFrame write(final MessageWriter writer, final int seqNum, final boolean possDup, final String origSendingTime)
    {
        final UnsafeBuffer orig = FixFrame.buffer(origSendingTime);
        final int offset = 17;
        final int length = writer.write(out, offset, encoder, seqNum, SENDING_TIME, possDup, orig, 0, orig.capacity());
        assertEquals(writer.length(encoder, seqNum, possDup, orig.capacity()), length, "length() predicts what write() produces");
        assertTrue(MessageFramer.checksumValid(out, offset, length));
        return FixFrame.parse(out.getStringWithoutLengthAscii(offset, length)).assertWellFormed();
    }

    private FixFrame write(final int seqNum)
    {
        return write(writer, seqNum, false, "");
    }

    @Test
    void writesTheStandardHeaderTheExtraHeaderAndTheBodyInOrder()
    {
        encoder.reset('D')
            .appendHeader(Fix.ON_BEHALF_OF_COMP_ID, "BROKER")
            .append(11, "ORD-1")
            .append(38, 100)
            .append(9999, -42L)
            .append(54, '1')
            .append(1000, true)
            .append(1001, false)
            .append(1002, "bytes".getBytes(StandardCharsets.US_ASCII))
            .append(1003, FixFrame.buffer("..slice.."), 2, 5);

        final FixFrame message = write(7);

        assertEquals(List.of(8, 9, 35, 49, 56, 34, 52, 115, 11, 38, 9999, 54, 1000, 1001, 1002, 1003, 10), message.tags());
        assertEquals("FIX.4.4", message.value(8));
        assertEquals("D", message.msgType());
        assertEquals("ISLD", message.value(49));
        assertEquals("TW", message.value(56));
        assertEquals(7, message.seqNum());
        assertEquals(SENDING_TIME_MILLIS, message.value(52));
        assertEquals("BROKER", message.value(115));
        assertEquals("115=BROKER|11=ORD-1|38=100|9999=-42|54=1|1000=Y|1001=N|1002=bytes|1003=slice|", message.body());
    }

    @Test
    void aPossibleDuplicateCarriesPossDupFlagAndOrigSendingTime()
    {
        encoder.reset("AE").append(571, "R1");

        final FixFrame message = write(writer, 3, true, "20240228-10:00:00.000");

        assertEquals(List.of(8, 9, 35, 49, 56, 34, 43, 52, 122, 571, 10), message.tags());
        assertEquals("Y", message.value(43));
        assertEquals("20240228-10:00:00.000", message.value(122));
        assertEquals("AE", message.msgType());
    }

    @Test
    void aPossibleDuplicateWithoutOrigSendingTimeHasOnlyTheFlag()
    {
        encoder.reset('0');

        final FixFrame message = write(writer, 3, true, "");

        assertEquals(List.of(8, 9, 35, 49, 56, 34, 43, 52, 10), message.tags());
    }

    @Test
    void bodyLengthAndCheckSumHoldForEverySeqNumWidthAndPrecision()
    {
        for (final TimestampPrecision precision : TimestampPrecision.values())
        {
            final MessageWriter writer = new MessageWriter(FixVersion.FIX42, "A", "LONGER-TARGET", precision);
            for (final int seqNum : new int[] {1, 9, 10, 99, 100, 65_535, 999_999_999, Integer.MAX_VALUE})
            {
                encoder.reset('0').append(Fix.TEST_REQ_ID, "x".repeat(seqNum % 97));
                final FixFrame message = write(writer, seqNum, seqNum % 2 == 0, "20240228-10:00:00");
                assertEquals(seqNum, message.seqNum());
                assertEquals(precision.length(), message.value(52).length());
            }
        }
    }

    @Test
    void theWriterTouchesNoByteAfterTheMessageAndFieldsAtTheBodysEndFitExactly()
    {
        // a body that fills its buffer to the last byte: the last fields cannot be stored as whole words
        final MessageEncoder small = new MessageEncoder(32);
        small.reset('D').append(11, "0123456789012").append(54, '1').append(21, '2').append(40, '3');
        assertEquals(32, small.bodyLength());
        java.util.Arrays.fill(out.byteArray(), (byte)'#');
        final int length = writer.write(out, 0, small.msgType(), small.msgTypeLength(), 5, SENDING_TIME, false, null, 0, 0,
            small.extraHeader(), small.extraHeaderLength(), small.body(), small.bodyLength());
        assertEquals('#', out.getByte(length), "the byte after the trailer is untouched");
        final FixFrame message = FixFrame.parse(out.getStringWithoutLengthAscii(0, length)).assertWellFormed();
        assertEquals("11=0123456789012|54=1|21=2|40=3|", message.body());
    }

    /**
     * The CheckSum the writer adds up as it writes (from the encoder's running sums, tables and digit words) against
     * the bytes it wrote, on random messages: every kind of field, tags past the tables' 9,999 and negative ones,
     * negative numbers, numbers of up to ten digits, bytes above 0x7F, a body buffer filled to its end (where fields
     * cannot be stored as whole words), every precision, MsgTypes of one and more characters, resends with
     * OrigSendingTime. The form with parts, which sums the parts it is given, must write the same bytes.
     */
    @Test
    void theCheckSumAddedUpWhileWritingIsTheSumOfTheBytesWritten()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final UnsafeBuffer parts = new UnsafeBuffer(new byte[4096]);
        final UnsafeBuffer orig = FixFrame.buffer("20240228-10:00:00.123");
        int fieldsThatDidNotFit = 0;
        for (int round = 0; round < 20_000; round++)
        {
            final MessageEncoder message = new MessageEncoder(64 + random.nextInt(256));
            if (random.nextInt(4) == 0)
            {
                message.reset("AB".substring(0, 1 + random.nextInt(2)) + random.nextInt(10));
            }
            else
            {
                message.reset((char)('0' + random.nextInt(75)));
            }
            for (int fields = random.nextInt(12); fields > 0; fields--)
            {
                final String before = state(message);
                try
                {
                    appendRandomField(message, random);
                }
                catch (final IndexOutOfBoundsException full)
                {
                    // the field did not fit: the encoder is as it was, and what it holds is framed below as it is
                    assertEquals(before, state(message), full.getMessage());
                    assertTrue(full.getMessage().contains("not fit in the message's"), full.getMessage());
                    fieldsThatDidNotFit++;
                }
            }
            assertEquals(Checksum.compute(message.body(), 0, message.bodyLength()), message.bodySum() & 0xFF, "body sum");
            assertEquals(Checksum.compute(message.extraHeader(), 0, message.extraHeaderLength()),
                message.extraHeaderSum() & 0xFF, "extra header sum");

            final TimestampPrecision precision = TimestampPrecision.values()[random.nextInt(TimestampPrecision.values().length)];
            final MessageWriter writer = new MessageWriter(FixVersion.FIX44, "S" + random.nextInt(1000), "T", precision);
            final int seqNum = random.nextInt(4) == 0 ? Integer.MAX_VALUE - random.nextInt(1000) : 1 + random.nextInt(10_000_000);
            final boolean possDup = random.nextBoolean();
            final int origLength = random.nextBoolean() ? orig.capacity() : 0;
            final long now = SENDING_TIME + random.nextLong(3_000_000_000L);
            final int length = writer.write(out, 3, message, seqNum, now, possDup, orig, 0, origLength);
            assertTrue(MessageFramer.checksumValid(out, 3, length), () -> out.getStringWithoutLengthAscii(3, length));
            assertEquals(length, writer.write(parts, 3, message.msgType(), message.msgTypeLength(), seqNum, now, possDup,
                orig, 0, origLength, message.extraHeader(), message.extraHeaderLength(), message.body(), message.bodyLength()));
            assertEquals(out.getStringWithoutLengthAscii(3, length), parts.getStringWithoutLengthAscii(3, length));
        }
        assertTrue(fieldsThatDidNotFit > 1000, "fields that did not fit: " + fieldsThatDidNotFit);
    }

    /** What a failed append must leave as it was: lengths, sums and bytes of the body and the extra header. */
    private static String state(final MessageEncoder message)
    {
        return message.bodyLength() + "/" + message.bodySum() + "/" + message.extraHeaderLength() + "/" + message.extraHeaderSum()
            + "/" + message.body().getStringWithoutLengthAscii(0, message.bodyLength())
            + "/" + message.extraHeader().getStringWithoutLengthAscii(0, message.extraHeaderLength());
    }

    private static void appendRandomField(final MessageEncoder message, final SplittableRandom random)
    {
        final int tag = switch (random.nextInt(6))
        {
            case 0 -> 10_000 + random.nextInt(100_000);
            case 1 -> -random.nextInt(100);
            default -> random.nextInt(10_000);
        };
        final int intValue = switch (random.nextInt(3))
        {
            case 0 -> random.nextInt(10);
            case 1 -> random.nextInt();
            default -> random.nextInt(Integer.MAX_VALUE);
        };
        // mostly short values, and a quarter up to 99 bytes: longer than the 64 that copySummed sums a word at a time
        final byte[] bytes = new byte[random.nextInt(4) == 0 ? random.nextInt(100) : random.nextInt(20)];
        random.nextBytes(bytes);
        switch (random.nextInt(11))
        {
            case 0 -> message.append(tag, intValue);
            case 1 -> message.append(tag, random.nextLong());
            case 2 -> message.append(tag, (char)random.nextInt(256));
            case 3 -> message.append(tag, random.nextBoolean());
            case 4 -> message.append(tag, new String(bytes, StandardCharsets.ISO_8859_1));
            case 5 -> message.append(tag, bytes);
            case 6 -> message.append(tag, new UnsafeBuffer(bytes), 0, bytes.length);
            case 7 -> message.appendDecimal(tag, random.nextLong(-1_000_000_000L, 1_000_000_000L), random.nextInt(-2, 9));
            case 8 -> message.appendTimestamp(tag, SENDING_TIME + random.nextLong(5_000_000_000L),
                TimestampPrecision.values()[random.nextInt(TimestampPrecision.values().length)]);
            case 9 -> message.appendRaw(new UnsafeBuffer(bytes), 0, bytes.length);
            default ->
            {
                if (random.nextBoolean())
                {
                    message.appendHeader(tag, new String(bytes, StandardCharsets.ISO_8859_1));
                }
                else
                {
                    message.appendHeader(tag, new UnsafeBuffer(bytes), 0, bytes.length);
                }
            }
        }
    }

    @Test
    void digitsCountsEveryWidthAtItsEdges()
    {
        for (long power = 1, width = 1; power <= Integer.MAX_VALUE; power *= 10, width++)
        {
            assertEquals(width, Ascii.digits((int)power));
            assertEquals(Long.toString(power - 1).length(), Ascii.digits((int)(power - 1)));
        }
        assertEquals(10, Ascii.digits(Integer.MAX_VALUE));
    }

    @Test
    void everyTagWidthIsWrittenWithItsEquals()
    {
        encoder.reset('D').append(0, 'a').append(7, 'b').append(9999, 'c').append(10_000, 'd').append(123_456_789, 'e')
            .append(10_000, 1).append(9999, "x");
        assertEquals("0=a|7=b|9999=c|10000=d|123456789=e|10000=1|9999=x|", write(2).body());
    }

    @Test
    void resetStartsAnEmptyMessageWithoutTheFieldsOfTheLastOne()
    {
        encoder.reset('D').appendHeader(97, "Y").append(11, "A");
        encoder.reset('0');

        assertEquals(List.of(8, 9, 35, 49, 56, 34, 52, 10), write(1).tags());

        final UnsafeBuffer type = FixFrame.buffer("xAEx");
        encoder.reset(type, 1, 2);
        assertEquals("AE", write(1).msgType());
        assertEquals(0, encoder.msgTypeChar());
    }

    @Test
    void aFieldThatDoesNotFitIsRefusedWithItsTagAndTheMessageBuiltSoFarIsKept()
    {
        final MessageEncoder small = new MessageEncoder(24);
        small.reset('D').append(11, "ORDER-1").append(54, '1');

        final IndexOutOfBoundsException full = assertThrows(IndexOutOfBoundsException.class, () -> small.append(58, "a text too long"));
        assertEquals("field 58 does not fit in the message's body: 16 of its 24 bytes are used; the encoder is as it was before"
            + " this append (a larger MessageEncoder(capacity) holds more)", full.getMessage());
        final IndexOutOfBoundsException rawFull = assertThrows(IndexOutOfBoundsException.class,
            () -> small.appendRaw(FixFrame.buffer("58=a text too long|"), 0, 19));
        assertTrue(rawFull.getMessage().startsWith("the raw fields do not fit in the message's body: 16 of its 24"), rawFull.getMessage());
        // a source out of its own bounds is that source's error, not a full encoder
        final IndexOutOfBoundsException badSource = assertThrows(IndexOutOfBoundsException.class,
            () -> small.appendRaw(FixFrame.buffer("1=x|"), 2, 4));
        assertFalse(badSource.getMessage().contains("not fit"), badSource.getMessage());

        final FixFrame sent = FixFrame.parse(out.getStringWithoutLengthAscii(0, writer.write(out, 0, small, 3, SENDING_TIME, false,
            null, 0, 0))).assertWellFormed();
        assertEquals("11=ORDER-1|54=1|", sent.body());
        assertEquals("11=ORDER-1|54=1|40=2|", FixFrame.parse(out.getStringWithoutLengthAscii(0, writer.write(out, 0,
            small.append(40, '2'), 4, SENDING_TIME, false, null, 0, 0))).assertWellFormed().body());
    }

    @Test
    void msgTypeMustHaveOneToSixteenCharacters()
    {
        assertThrows(IllegalArgumentException.class, () -> encoder.reset(""));
        assertThrows(IllegalArgumentException.class, () -> encoder.reset("x".repeat(17)));
        assertEquals(16, encoder.reset("x".repeat(16)).msgTypeLength());
    }

    @Test
    void decimalsMatchBigDecimal()
    {
        // the edges of the int range too, where the digits' fast path (a mantissa that fits an int) ends
        final long[] mantissas = {0, 1, -1, 5, -5, 12345, -12345, 100, 999_999_999_999L, Long.MAX_VALUE, -Long.MAX_VALUE,
            Integer.MAX_VALUE, -Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE + 1L, 999_999_999, 1_000_000_000};
        for (int scale = 0; scale <= 18; scale++)
        {
            for (final long mantissa : mantissas)
            {
                assertDecimal(mantissa, scale);
            }
        }
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 10_000; i++)
        {
            assertDecimal(random.nextLong(-Long.MAX_VALUE, Long.MAX_VALUE), random.nextInt(0, 19));
            assertDecimal(random.nextInt(), random.nextInt(0, 11));
            assertDecimal(random.nextInt(100_000), random.nextInt(0, 11));
        }
    }

    private void assertDecimal(final long mantissa, final int scale)
    {
        encoder.reset('D').appendDecimal(44, mantissa, scale);
        final String expected = BigDecimal.valueOf(mantissa, scale).toPlainString();
        assertEquals(expected, write(1).value(44), () -> mantissa + " scale " + scale);
    }

    @ParameterizedTest
    @EnumSource(TimestampPrecision.class)
    void timestampsMatchJavaTime(final TimestampPrecision precision)
    {
        final DateTimeFormatter format = DateTimeFormatter.ofPattern(
            "yyyyMMdd-HH:mm:ss" + (precision.fractionDigits() == 0 ? "" : "." + "S".repeat(precision.fractionDigits())))
            .withZone(ZoneOffset.UTC);
        encoder.reset('D').appendTimestamp(60, SENDING_TIME, precision);

        assertEquals(format.format(SENDING_INSTANT), write(1).value(60));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 9, 10, 99, 100, 999, 1_000, 123_456, 9_999_999, 10_000_000, 999_999_999, 1_000_000_000,
        Integer.MAX_VALUE, -1, -10, -123_456, Integer.MIN_VALUE})
    void anIntValueIsItsDecimalDigitsWithTheSignAndNothingElse(final int value)
    {
        encoder.reset('D').append(38, value).append(11, "X");

        final FixFrame frame = write(1);
        assertEquals(Integer.toString(value), frame.value(38));
        assertEquals("X", frame.value(11), "the next field starts right after the value's SOH");
    }
}
