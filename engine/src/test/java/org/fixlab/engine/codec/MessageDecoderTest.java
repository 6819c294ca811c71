package org.fixlab.engine.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.fixlab.engine.codec.FixFrame.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Splitting a message into fields in place: values, odd tags, and what counts as garbled. */
class MessageDecoderTest
{
    private final MessageDecoder decoder = new MessageDecoder(16);

    private int decode(final String pipeText)
    {
        final UnsafeBuffer buffer = buffer(pipeText.replace('|', FixFrame.SOH));
        return decoder.decode(buffer, 0, buffer.capacity());
    }

    @Test
    void readsTagsAndValuesInOrder()
    {
        assertEquals(MessageDecoder.OK, decode("8=FIX.4.4|9=5|35=D|34=12|44=-1.5|10=000|"));

        assertEquals(6, decoder.fieldCount());
        assertEquals(8, decoder.tag(0));
        assertEquals(10, decoder.tag(5));
        assertEquals("FIX.4.4", decoder.stringValue(8));
        assertEquals('D', decoder.msgTypeChar());
        assertEquals(12, decoder.intValue(34, -1));
        assertEquals(12L, decoder.longValue(34, -1));
        assertEquals("-1.5", decoder.stringValue(44));
        assertEquals(3, decoder.indexOf(34));
        assertEquals(-1, decoder.indexOf(99));
        assertEquals("8=FIX.4.4|9=5|35=D|34=12|44=-1.5|10=000|", decoder.toString());
    }

    @Test
    void valuesOfMissingOrMalformedFieldsFallBackToTheCallersDefault()
    {
        assertEquals(MessageDecoder.OK, decode("35=AE|34=1x|43=Y|97=N|108=1234567890|7=2147483648|"));

        assertEquals(0, decoder.msgTypeChar(), "a two-character MsgType has no char form");
        assertEquals(-7, decoder.intValue(34, -7), "not a number");
        assertEquals(-7, decoder.intValue(999, -7), "absent");
        assertEquals(1234567890, decoder.intValue(108, -7), "ten digits within the int range");
        assertEquals(-7, decoder.intValue(7, -7), "one above Integer.MAX_VALUE");
        assertEquals(1234567890L, decoder.longValue(108, -7));
        assertTrue(decoder.isFlagSet(43));
        assertFalse(decoder.isFlagSet(97));
        assertFalse(decoder.isFlagSet(999));
        assertEquals(UtcTimestamps.INVALID, decoder.timestampValue(52));
    }

    @Test
    void theLargestMsgSeqNumIsAValueNotAMissingField()
    {
        assertEquals(MessageDecoder.OK, decode("8=FIX.4.4|9=5|35=0|34=2147483647|10=000|"));

        assertEquals(Integer.MAX_VALUE, decoder.intValue(34, Integer.MIN_VALUE));
    }

    @Test
    void repeatedTagsAreKeptAndFoundFromAnIndex()
    {
        assertEquals(MessageDecoder.OK, decode("35=D|268=2|269=0|269=1|"));

        assertEquals(2, decoder.indexOf(269));
        assertEquals(3, decoder.indexOf(269, 3));
        assertEquals("0", decoder.stringValue(269), "stringValue reads the first occurrence");
    }

    @Test
    void negativeTagsAreReportedWithTheirSign()
    {
        assertEquals(MessageDecoder.OK, decode("35=0|-5=x|-0=y|"));

        assertEquals(-5, decoder.tag(1));
        assertEquals(0, decoder.tag(2));
        assertEquals("x", decoder.stringValue(-5));
    }

    @Test
    void tagsTooLongForAnIntAreMarkedOversizedWhateverTheirSign()
    {
        assertEquals(MessageDecoder.OK, decode("35=0|1234567890=x|-99999999999=y|123456789=z|"));

        assertEquals(MessageDecoder.OVERSIZED_TAG, decoder.tag(1));
        assertEquals(MessageDecoder.OVERSIZED_TAG, decoder.tag(2));
        assertEquals(123456789, decoder.tag(3), "nine digits still fit");
    }

    @Test
    void emptyValuesAreFieldsOfLengthZero()
    {
        assertEquals(MessageDecoder.OK, decode("35=0|58=|112=T|"));

        assertEquals(3, decoder.fieldCount());
        assertEquals(0, decoder.valueLength(1));
        assertEquals("", decoder.stringValue(58));
        assertEquals(-1, decoder.intValue(58, -1));
        assertEquals("T", decoder.stringValue(112));
    }

    @Test
    void anEqualsSignInsideAValueIsPartOfTheValue()
    {
        assertEquals(MessageDecoder.OK, decode("58=a=b|"));
        assertEquals("a=b", decoder.stringValue(58));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {
        "",                  // nothing at all
        "35=0",              // no SOH after the last value
        "35=0|58",           // a tag without '='
        "35=0|=x|",          // an empty tag
        "35=0|-=x|",         // a sign without digits
        "35=0|5a=x|",        // a tag that is not a number
        "35=0| 58=x|",       // whitespace is not part of a tag
        "35=0||58=x|",       // an empty field between two SOH
        "35=0|+58=x|",       // only '-' is tolerated as a sign
    })
    void garbled(final String text)
    {
        assertEquals(MessageDecoder.GARBLED, decode(text));
    }

    @Test
    void moreFieldsThanTheTablesHoldIsTooManyFields()
    {
        final MessageDecoder small = new MessageDecoder(3);
        final UnsafeBuffer three = buffer("1=a\u00012=b\u00013=c\u0001");
        final UnsafeBuffer four = buffer("1=a\u00012=b\u00013=c\u00014=d\u0001");

        assertEquals(MessageDecoder.OK, small.decode(three, 0, three.capacity()));
        assertEquals(MessageDecoder.TOO_MANY_FIELDS, small.decode(four, 0, four.capacity()));
    }

    /** The split that writes its tables without bounds checks stops at their size, and the next message is whole. */
    @Test
    void moreFieldsThanTheTablesHoldIsTooManyFieldsWithRoomAfterTheMessage()
    {
        final MessageDecoder small = new MessageDecoder(3);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final byte[] four = "1=a\u00012=b\u00013=c\u00014=d\u0001".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        buffer.putBytes(0, four);
        assertEquals(MessageDecoder.TOO_MANY_FIELDS, small.decode(buffer, 0, four.length));

        final byte[] three = "7=x\u000158=y\u000110=z\u0001".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        buffer.putBytes(0, three);
        assertEquals(MessageDecoder.OK, small.decode(buffer, 0, three.length));
        assertEquals(3, small.fieldCount());
        assertEquals("y", small.stringValue(58));
        assertEquals(10, small.tag(2));
        assertEquals(-1, small.indexOf(1));
    }

    @Test
    void decodesAWindowOfALargerBufferAndForgetsThePreviousMessage()
    {
        final UnsafeBuffer buffer = buffer("xx35=0\u000158=first\u0001yy");
        assertEquals(MessageDecoder.OK, decoder.decode(buffer, 2, buffer.capacity() - 4));
        assertEquals("first", decoder.stringValue(58));
        assertEquals(2, decoder.offset());

        assertEquals(MessageDecoder.OK, decode("35=1|"));
        assertEquals(1, decoder.fieldCount());
        assertFalse(decoder.has(58));
    }

    @Test
    void aDataFieldTakesTheBytesItsLengthFieldAnnouncedSohIncluded()
    {
        assertEquals(MessageDecoder.OK, decode("35=D|95=5|96=a|b|c|354=3|355=x=y|58=text|10=000|"));

        assertEquals(7, decoder.fieldCount());
        assertEquals("a\u0001b\u0001c", decoder.stringValue(96));
        assertEquals("x=y", decoder.stringValue(355));
        assertEquals("text", decoder.stringValue(58));
        assertEquals(10, decoder.tag(6));
    }

    @Test
    void aDataFieldNeedsAValidLengthFieldBeforeIt()
    {
        assertEquals(MessageDecoder.OK, decode("95=x|96=ab|10=000|"), "a length that is not a number");
        assertEquals(3, decoder.fieldCount());
        assertEquals(MessageDecoder.GARBLED, decode("95=x|96=a|b|10=000|"), "...leaves an SOH in data to split the message");
        assertEquals(MessageDecoder.OK, decode("96=ab|10=000|"), "no length field at all");
        assertEquals(2, decoder.fieldCount());
        assertEquals(MessageDecoder.OK, decode("95=3|58=t|96=a|b|10=000|"), "the length field need not be adjacent");
        assertEquals("a\u0001b", decoder.stringValue(96));
    }

    @Test
    void aDataFieldTakesAtLeastTheAnnouncedBytesAsQuickFixJReadsIt()
    {
        assertEquals(MessageDecoder.GARBLED, decode("95=20|96=abc|10=000|"), "runs past the message");
        assertEquals(MessageDecoder.OK, decode("95=2|96=abc|10=000|"), "longer than announced: up to the next SOH");
        assertEquals("abc", decoder.stringValue(96));
        assertEquals(MessageDecoder.OK, decode("95=0|96=|10=000|"), "empty data");
        assertEquals("", decoder.stringValue(96));
        assertEquals(MessageDecoder.OK, decode("95=999999999|58=x|10=000|"), "a huge length alone does no harm");
        assertEquals(MessageDecoder.GARBLED, decode("95=999999999|96=x|10=000|"));
    }

    /**
     * Random field lists split as a byte-by-byte reference splits them: tags of 0 to 12 digits (leading zeros, a sign,
     * a stray byte at any place in them, a missing '='), values with '=' and stray signs, a last SOH sometimes missing,
     * at every alignment of the buffer, with digits after the message that must not be read as part of it, and 0 to 11
     * bytes of the buffer after it (from 8 on, a message ending in SOH is split word by word without checks against
     * its end; below, byte by byte), each tag found by indexOf where it first is. Tags of data pairs are left out: the
     * reference does not know them (their own tests are above).
     */
    @Test
    void randomFieldsSplitAsAByteByByteReferenceSplitsThem()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(20261126);
        final MessageDecoder small = new MessageDecoder(12);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final UnsafeBuffer endingSoon = new UnsafeBuffer(0, 0);
        for (int message = 0; message < 20_000; message++)
        {
            final StringBuilder text = new StringBuilder();
            final int fields = 1 + random.nextInt(14);
            for (int field = 0; field < fields; field++)
            {
                text.append(randomTag(random)).append(random.nextInt(30) == 0 ? "" : "=");
                final int valueLength = random.nextInt(12);
                for (int i = 0; i < valueLength; i++)
                {
                    text.append("abcXYZ019=-.".charAt(random.nextInt(12)));
                }
                text.append(field == fields - 1 && random.nextInt(20) == 0 ? "" : "\u0001");
            }
            final byte[] bytes = text.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            final int offset = random.nextInt(9);
            buffer.setMemory(0, buffer.capacity(), (byte)'7'); // digits after the message must not join its last tag
            buffer.putBytes(offset, bytes);
            final Reference expected = Reference.split(bytes, small.maxFields());
            endingSoon.wrap(buffer.byteArray(), 0, offset + bytes.length + random.nextInt(12));
            final int result = small.decode(endingSoon, offset, bytes.length);
            final String what = text.toString().replace('\u0001', '|');
            assertEquals(expected.result, result, what);
            if (result == MessageDecoder.OK)
            {
                assertEquals(expected.tags.size(), small.fieldCount(), what);
                for (int i = 0; i < small.fieldCount(); i++)
                {
                    assertEquals(expected.tags.get(i), small.tag(i), what);
                    assertEquals(offset + expected.valueOffsets.get(i), small.valueOffset(i), what);
                    assertEquals(expected.valueLengths.get(i), small.valueLength(i), what);
                    final int tag = expected.tags.get(i);
                    if (tag > 0)
                    {
                        // a tag that repeats (a group's) is found where it first is
                        assertEquals(expected.tags.indexOf(tag), small.indexOf(tag), what + ": tag " + tag);
                    }
                }
            }
        }
    }

    /** Digits (often short, sometimes past an int), with a leading sign or a stray byte now and then; no data tag. */
    private static String randomTag(final java.util.SplittableRandom random)
    {
        while (true)
        {
            final StringBuilder tag = new StringBuilder(random.nextInt(10) == 0 ? "-" : "");
            final int digits = random.nextInt(4) == 0 ? random.nextInt(13) : 1 + random.nextInt(3);
            for (int i = 0; i < digits; i++)
            {
                tag.append((char)('0' + random.nextInt(10)));
            }
            if (random.nextInt(25) == 0)
            {
                tag.insert(random.nextInt(tag.length() + 1), "-/:a ".charAt(random.nextInt(5)));
            }
            final String text = tag.toString();
            if (!text.matches("-?\\d{1,9}") || DataFields.pairOf(Math.abs(Integer.parseInt(text))) == DataFields.NONE)
            {
                return text;
            }
        }
    }

    /** The splitting rules, a byte at a time. */
    private static final class Reference
    {
        int result = MessageDecoder.OK;
        final java.util.List<Integer> tags = new java.util.ArrayList<>();
        final java.util.List<Integer> valueOffsets = new java.util.ArrayList<>();
        final java.util.List<Integer> valueLengths = new java.util.ArrayList<>();

        static Reference split(final byte[] bytes, final int maxFields)
        {
            final Reference fields = new Reference();
            int i = 0;
            while (i < bytes.length)
            {
                final boolean negative = bytes[i] == '-';
                final int digitsStart = negative ? i + 1 : i;
                int equals = digitsStart;
                while (equals < bytes.length && bytes[equals] >= '0' && bytes[equals] <= '9')
                {
                    equals++;
                }
                final int soh = indexOf(bytes, (byte)1, equals);
                if (equals == digitsStart || equals == bytes.length || bytes[equals] != '=' || soh < 0)
                {
                    fields.result = MessageDecoder.GARBLED;
                    return fields;
                }
                if (fields.tags.size() == maxFields)
                {
                    fields.result = MessageDecoder.TOO_MANY_FIELDS;
                    return fields;
                }
                final String digits = new String(bytes, digitsStart, equals - digitsStart, java.nio.charset.StandardCharsets.US_ASCII);
                fields.tags.add(digits.length() > 9 ? MessageDecoder.OVERSIZED_TAG
                    : negative ? -Integer.parseInt(digits) : Integer.parseInt(digits));
                fields.valueOffsets.add(equals + 1);
                fields.valueLengths.add(soh - equals - 1);
                i = soh + 1;
            }
            return fields;
        }

        private static int indexOf(final byte[] bytes, final byte value, final int from)
        {
            for (int i = from; i < bytes.length; i++)
            {
                if (bytes[i] == value)
                {
                    return i;
                }
            }
            return -1;
        }
    }
}
