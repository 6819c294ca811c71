package org.fixlab.engine.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.codec.FixFrame.buffer;
import static org.fixlab.engine.codec.FixFrame.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cutting messages out of a byte stream: whole, partial, with bad lengths, after garbage. */
class MessageFramerTest
{
    private static final String HEARTBEAT = frame("8=FIX.4.4|35=0|34=2|49=TW|52=20240229-12:00:00.000|56=ISLD|");
    private static final String ORDER = frame("8=FIX.4.4|35=D|34=3|49=TW|52=20240229-12:00:00.000|56=ISLD|11=A|");

    private final MessageFramer framer = new MessageFramer(1024);

    private int scan(final String stream)
    {
        final UnsafeBuffer buffer = buffer(stream);
        return framer.scan(buffer, 0, buffer.capacity());
    }

    private String frameText(final String stream)
    {
        return stream.substring(framer.frameStart(), framer.frameStart() + framer.frameLength());
    }

    @Test
    void findsACompleteFrame()
    {
        assertEquals(MessageFramer.FRAME, scan(HEARTBEAT + ORDER));

        assertEquals(0, framer.frameStart());
        assertEquals(HEARTBEAT.length(), framer.frameLength());
        assertEquals(HEARTBEAT.length(), framer.resumeAt(), "the next scan starts right after it");
    }

    @Test
    void scansTheNextFrameFromResumeAt()
    {
        final String stream = HEARTBEAT + ORDER;
        final UnsafeBuffer buffer = buffer(stream);
        framer.scan(buffer, 0, buffer.capacity());

        assertEquals(MessageFramer.FRAME, framer.scan(buffer, framer.resumeAt(), buffer.capacity()));
        assertEquals(ORDER, frameText(stream));
        assertEquals(stream.length(), framer.resumeAt());
    }

    @Test
    void needsMoreUntilTheLastByteOfTheTrailerArrives()
    {
        for (int cut = 1; cut < ORDER.length(); cut++)
        {
            final int at = cut;
            assertEquals(MessageFramer.NEED_MORE, scan(ORDER.substring(0, cut)), () -> "cut after " + at + " bytes");
            assertTrue(framer.resumeAt() <= Math.max(0, cut - 4), "nothing that could start the frame is discarded");
        }
        assertEquals(MessageFramer.FRAME, scan(ORDER));
        assertEquals(ORDER, frameText(ORDER));
    }

    /** A BeginString counts only at the start of a field, so garbage ends with an SOH as a broken message would. */
    @Test
    void skipsLeadingGarbage()
    {
        final String stream = "junk 8=FIX but not a field\u0001\u0001xyz\u0001" + ORDER;

        assertEquals(MessageFramer.FRAME, scan(stream));
        assertEquals(ORDER, frameText(stream));
    }

    @Test
    void keepsAPossibleBeginStringAtTheTailOfGarbage()
    {
        assertEquals(MessageFramer.NEED_MORE, scan("garbage 8=FI"));
        assertEquals("garbage ".length(), framer.resumeAt(), "the last four bytes may start '8=FIX'");
    }

    @Test
    void bodyLengthTooShortIsGarbledAndTheNextMessageIsStillFound()
    {
        final String bad = HEARTBEAT.replace("\u00019=" + bodyLength(HEARTBEAT) + "\u0001",
            "\u00019=" + (bodyLength(HEARTBEAT) - 5) + "\u0001");
        final String stream = bad + ORDER;
        final UnsafeBuffer buffer = buffer(stream);

        assertEquals(MessageFramer.GARBLED, framer.scan(buffer, 0, buffer.capacity()));
        assertTrue(framer.resumeAt() > 0 && framer.resumeAt() <= bad.length(), "resumes inside the bad message");

        assertEquals(MessageFramer.FRAME, framer.scan(buffer, framer.resumeAt(), buffer.capacity()));
        assertEquals(ORDER, frameText(stream));
    }

    @Test
    void bodyLengthTooLongIsGarbledOnceTheClaimedBodyHasArrivedAndTheSearchResumesAtTheNext8Fix()
    {
        final int claimed = bodyLength(HEARTBEAT) + 20;
        final String bad = HEARTBEAT.replace("\u00019=" + bodyLength(HEARTBEAT) + "\u0001", "\u00019=" + claimed + "\u0001");

        assertEquals(MessageFramer.NEED_MORE, scan(bad), "the claimed body has not arrived yet");

        // The claimed body ends inside the message after it, which is lost with it (as the class
        // documents); the search then finds the one after that.
        final String stream = bad + ORDER + HEARTBEAT;
        final UnsafeBuffer buffer = buffer(stream);
        assertEquals(MessageFramer.GARBLED, framer.scan(buffer, 0, buffer.capacity()));
        final int claimedEnd = bad.indexOf("\u000135=") + 1 + claimed;
        assertEquals(claimedEnd, framer.resumeAt());

        assertEquals(MessageFramer.FRAME, framer.scan(buffer, framer.resumeAt(), buffer.capacity()));
        assertEquals(bad.length() + ORDER.length(), framer.frameStart());
        assertEquals(HEARTBEAT, frameText(stream));
    }

    @Test
    void bodyLengthThatIsNotANumberIsGarbled()
    {
        assertEquals(MessageFramer.GARBLED, scan("8=FIX.4.4\u00019=1x\u000135=0\u000110=000\u0001"));
        assertEquals(1, framer.resumeAt());
        assertEquals(MessageFramer.GARBLED, scan("8=FIX.4.4\u00019=\u000135=0\u000110=000\u0001"));
        assertEquals(MessageFramer.GARBLED, scan("8=FIX.4.4\u000135=0\u00019=5\u000110=000\u0001"), "9 must follow 8");
    }

    @Test
    void bodyLengthBeyondTheMaximumIsTooLarge()
    {
        final MessageFramer small = new MessageFramer(HEARTBEAT.length());
        final UnsafeBuffer fits = buffer(HEARTBEAT);
        assertEquals(MessageFramer.FRAME, small.scan(fits, 0, fits.capacity()));

        final UnsafeBuffer larger = buffer(ORDER);
        assertEquals(MessageFramer.TOO_LARGE, small.scan(larger, 0, larger.capacity()),
            "known from the header alone, before the body arrives");
    }

    @Test
    void aBodyLengthThatOverflowsAnIntIsTooLargeNotACrash()
    {
        for (final String length : new String[] {"2147483648", "4294967296", "9999999999"})
        {
            final String stream = "8=FIX.4.4\u00019=" + length + "\u000135=0\u000110=000\u0001";
            assertEquals(MessageFramer.TOO_LARGE, scan(stream), () -> "9=" + length);
        }
    }

    @Test
    void aCheckSumFieldOfTheWrongShapeWhereBodyLengthPointsIsGarbled()
    {
        final String noSoh = HEARTBEAT.substring(0, HEARTBEAT.length() - 1) + "X";
        assertEquals(MessageFramer.GARBLED, scan(noSoh));
    }

    @Test
    void checksumHelpersReadAndVerifyTheTrailer()
    {
        final UnsafeBuffer good = buffer(ORDER);
        assertEquals(FixFrame.checksum(ORDER.substring(0, ORDER.length() - 7)),
            MessageFramer.declaredChecksum(good, 0, good.capacity()));
        assertTrue(MessageFramer.checksumValid(good, 0, good.capacity()));

        final String wrongSum = ORDER.substring(0, ORDER.length() - 4) +
            String.format("%03d", (FixFrame.checksum(ORDER.substring(0, ORDER.length() - 7)) + 1) % 256) + "\u0001";
        final UnsafeBuffer bad = buffer(wrongSum);
        assertFalse(MessageFramer.checksumValid(bad, 0, bad.capacity()));

        final UnsafeBuffer notDigits = buffer(ORDER.substring(0, ORDER.length() - 4) + "0x0\u0001");
        assertEquals(-1, MessageFramer.declaredChecksum(notDigits, 0, notDigits.capacity()));
        assertFalse(MessageFramer.checksumValid(notDigits, 0, notDigits.capacity()));
    }

    /** Every CheckSum from 000 to 999 reads as its number; a byte that is not a digit in any place reads as -1. */
    @Test
    void declaredChecksumReadsEveryThreeDigitsAndRefusesAnyOtherByte()
    {
        final UnsafeBuffer trailer = new UnsafeBuffer(new byte[7]);
        trailer.putStringWithoutLengthAscii(0, "10=000\u0001");
        for (int value = 0; value < 1000; value++)
        {
            trailer.putStringWithoutLengthAscii(3, String.format("%03d", value));
            assertEquals(value, MessageFramer.declaredChecksum(trailer, 0, 7));
        }
        for (int place = 3; place < 6; place++)
        {
            for (int b = 0; b < 256; b++)
            {
                trailer.putStringWithoutLengthAscii(3, "999");
                trailer.putByte(place, (byte)b);
                final int expected = b >= '0' && b <= '9' ? Integer.parseInt(trailer.getStringWithoutLengthAscii(3, 3)) : -1;
                assertEquals(expected, MessageFramer.declaredChecksum(trailer, 0, 7), "byte " + b + " at " + place);
            }
        }
    }

    @Test
    void checksumSumsBytesAsUnsignedModulo256()
    {
        final String text = "\u00ff\u00ff\u0002";
        final UnsafeBuffer buffer = buffer(text);
        assertEquals((255 + 255 + 2) % 256, Checksum.compute(buffer, 0, 3));
        assertEquals(FixFrame.checksum(HEARTBEAT.substring(0, 20)), Checksum.compute(buffer(HEARTBEAT), 0, 20));
    }

    private static int bodyLength(final String framed)
    {
        return FixFrame.parse(framed).intValue(Fix.BODY_LENGTH);
    }

    /**
     * The framer reads nothing outside the bytes it is given: random streams of whole, cut and garbled
     * messages, scanned as a connection scans them (from resumeAt on, the bytes at hand growing), give the same answers
     * whether the memory around them holds SOHs or the start of another message. A read before the offset or past the
     * end (the framer reads without a check per byte) would see the difference.
     */
    @Test
    void answersDependOnlyOnTheBytesAtHand()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(20261126);
        final String lure = "8=FIX.4.4|9=5|35=0|10=000|".replace('|', FixFrame.SOH);
        for (int stream = 0; stream < 2_000; stream++)
        {
            final StringBuilder text = new StringBuilder();
            while (text.length() < 300)
            {
                final String message = random.nextBoolean() ? HEARTBEAT : ORDER;
                final int kind = random.nextInt(6);
                if (kind == 0)
                {
                    text.append(message, 0, random.nextInt(message.length())); // cut short
                }
                else if (kind == 1)
                {
                    final char[] garbled = message.toCharArray();
                    garbled[random.nextInt(garbled.length)] = "9=|8X1".charAt(random.nextInt(6));
                    text.append(garbled);
                }
                else
                {
                    text.append(message);
                }
            }
            final byte[] bytes = text.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            final int offset = 1 + random.nextInt(lure.length());
            assertEquals(scanAll(bytes, offset, (byte)FixFrame.SOH, lure), scanAll(bytes, offset, (byte)'8', lure),
                FixFrame.pipes(text));
        }
    }

    /**
     * A FIX 4.x frame at the scan's start is read a few words at a time; anywhere else, a byte at a time. Random frames
     * with a byte of their head or trailer changed, BodyLength written another way (leading zeros, off by up to two,
     * none), cut anywhere from 20 bytes on, with a maximum message size the frame may pass, answer the same both ways:
     * scanned where they start, and with one SOH before them (the byte-by-byte scan then finds them one byte in).
     */
    @Test
    void theCommonFrameIsReadAsTheByteByByteScanReadsIt()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(20261127);
        final String[] beginStrings = {"FIX.4.2", "FIX.4.4", "FIX.4.0", "FIXT.1.1"};
        for (int frame = 0; frame < 50_000; frame++)
        {
            final String body = "35=D|34=" + random.nextInt(1_000_000) + "|49=C|56=S|11=" + "x".repeat(random.nextInt(40)) + "|";
            final String framed = frame("8=" + beginStrings[random.nextInt(4)] + "|" + body);
            final int declared = bodyLength(framed);
            final String declaredText = switch (random.nextInt(6))
            {
                case 0 -> "0" + declared;
                case 1 -> "000" + declared;
                case 2 -> String.valueOf(declared + random.nextInt(5) - 2);
                case 3 -> "";
                default -> String.valueOf(declared);
            };
            final char[] text = framed.replaceFirst("\u00019=\\d+\u0001", "\u00019=" + declaredText + "\u0001").toCharArray();
            if (random.nextInt(3) == 0)
            {
                // a byte of the head (through BodyLength) or of the trailer
                final int at = random.nextBoolean() ? random.nextInt(18) : text.length - 1 - random.nextInt(8);
                text[at] = "9=|8X10.".charAt(random.nextInt(8));
            }
            final byte[] bytes = new String(text).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            // from 20 bytes on, what the word-wise scan may answer (below, both scans are the byte-by-byte one)
            final int end = random.nextInt(4) == 0 ? 20 + random.nextInt(bytes.length - 19) : bytes.length;
            final MessageFramer framer = new MessageFramer(random.nextBoolean() ? 1024 : 60 + random.nextInt(60));
            final UnsafeBuffer atStart = new UnsafeBuffer(new byte[bytes.length + 16]);
            atStart.putBytes(0, bytes);
            final UnsafeBuffer oneIn = new UnsafeBuffer(new byte[bytes.length + 17]);
            oneIn.putByte(0, (byte)FixFrame.SOH);
            oneIn.putBytes(1, bytes);

            final int result = framer.scan(atStart, 0, end);
            final String wordwise = result + "@" + framer.frameStart() + "+" + framer.frameLength() + ">" + framer.resumeAt();
            final int resultOneIn = framer.scan(oneIn, 0, end + 1);
            final String bytewise = resultOneIn + "@" + (framer.frameStart() - 1) + "+" + framer.frameLength() + ">" +
                (framer.resumeAt() - 1);
            assertEquals(bytewise, wordwise, FixFrame.pipes(new String(text, 0, end)));
        }
    }

    /** Every answer of a connection-like scan of {@code bytes} placed at {@code offset} among other bytes. */
    private static java.util.List<String> scanAll(final byte[] bytes, final int offset, final byte filler, final String lure)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + bytes.length + lure.length()]);
        buffer.setMemory(0, buffer.capacity(), filler);
        if (filler == '8')
        {
            buffer.putStringWithoutLengthAscii(0, lure.substring(lure.length() - offset));
            buffer.putStringWithoutLengthAscii(offset + bytes.length, lure);
        }
        buffer.putBytes(offset, bytes);
        final MessageFramer framer = new MessageFramer(1024);
        final java.util.List<String> answers = new java.util.ArrayList<>();
        int from = offset;
        for (int end = offset; end <= offset + bytes.length; end += 7)
        {
            int result;
            do
            {
                result = framer.scan(buffer, from, end);
                answers.add(result + "@" + framer.frameStart() + "+" + framer.frameLength() + ">" + framer.resumeAt());
                from = Math.max(from, framer.resumeAt());
            }
            while (result != MessageFramer.NEED_MORE && from < end);
        }
        return answers;
    }
}
