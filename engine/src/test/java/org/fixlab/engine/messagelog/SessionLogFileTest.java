package org.fixlab.engine.messagelog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.codec.UtcTimestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A line of the message log is what a byte-by-byte formatter would write: the timestamp as UtcTimestamps
 * formats it, then each byte as it is or escaped. The file scans eight bytes at a time and copies the
 * timestamp's seconds from a cache, so random messages (every byte value, runs of plain text, SOH, '\\',
 * '|', at every alignment and length) and timestamps across second boundaries are checked against it.
 */
class SessionLogFileTest
{
    private static final long START = 1_795_600_000_999_990_000L; // ten microseconds before a second changes

    @TempDir
    Path dir;

    @Test
    void linesMatchAByteByByteFormatterForRandomMessagesInBothDelimiters() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(20261125);
        for (final FieldDelimiter delimiter : FieldDelimiter.values())
        {
            final Path path = dir.resolve(delimiter.key() + ".messages.log");
            final ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (SessionLogFile file = new SessionLogFile(path, delimiter))
            {
                final UnsafeBuffer source = new UnsafeBuffer(new byte[512]);
                for (int line = 0; line < 5_000; line++)
                {
                    final int offset = random.nextInt(8);
                    final int length = random.nextInt(200);
                    final byte[] message = randomMessage(random, length);
                    source.putBytes(offset, message);
                    final long epochNanos = START + line * 3_000L + random.nextInt(1_000);
                    file.append(source, offset, length, length, epochNanos);
                    expected.write(referenceLine(message, epochNanos, delimiter));
                }
            }
            assertArrayEquals(expected.toByteArray(), Files.readAllBytes(path), delimiter.key());
        }
    }

    /**
     * Every pair of byte values side by side in a message of plain text, inside a word and across two, in both
     * delimiters: the whole-message test of the common case (SOH kept) must find every byte to escape whatever its
     * neighbour carries or borrows into it, and the lines must be the byte-by-byte formatter's.
     */
    @Test
    void everyPairOfNeighbouringBytesIsWrittenAsTheByteByByteFormatterWritesIt() throws IOException
    {
        for (final FieldDelimiter delimiter : FieldDelimiter.values())
        {
            final Path path = dir.resolve("pairs-" + delimiter.key() + ".messages.log");
            final ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (SessionLogFile file = new SessionLogFile(path, delimiter))
            {
                final byte[] message = "8=FIX.4.2\u00019=123\u0001".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                final UnsafeBuffer source = new UnsafeBuffer(new byte[message.length]);
                long epochNanos = START;
                for (final int at : new int[] {5, 7})
                {
                    for (int pair = 0; pair < 1 << 16; pair++)
                    {
                        final byte[] line = message.clone();
                        line[at] = (byte)(pair >>> 8);
                        line[at + 1] = (byte)pair;
                        source.putBytes(0, line);
                        epochNanos += 1_000;
                        file.append(source, 0, line.length, line.length, epochNanos);
                        expected.write(referenceLine(line, epochNanos, delimiter));
                    }
                }
            }
            assertArrayEquals(expected.toByteArray(), Files.readAllBytes(path), delimiter.key());
        }
    }

    /**
     * A session that logs more between two hand-overs than its buffer holds gets the biggest buffer at once (one new
     * buffer in its life, not one per doubling), without a line lost or cut; one whose writer hands its lines over
     * before the buffer fills keeps the first size however much it logs in all.
     */
    @Test
    void aBufferThatFillsBeforeItIsHandedOverGrowsToTheMostAndLosesNothing() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(20261128);
        final UnsafeBuffer source = new UnsafeBuffer(new byte[512]);
        final Path busy = dir.resolve("busy.messages.log");
        final Path quiet = dir.resolve("quiet.messages.log");
        final ByteArrayOutputStream busyExpected = new ByteArrayOutputStream();
        final ByteArrayOutputStream quietExpected = new ByteArrayOutputStream();
        try (SessionLogFile busyFile = new SessionLogFile(busy, FieldDelimiter.SOH);
            SessionLogFile quietFile = new SessionLogFile(quiet, FieldDelimiter.SOH))
        {
            for (int line = 0; line < 40_000; line++)
            {
                final int length = 80 + random.nextInt(200);
                final byte[] message = randomMessage(random, length);
                source.putBytes(0, message);
                final long epochNanos = START + line * 1_000L;
                busyFile.append(source, 0, length, length, epochNanos);
                busyExpected.write(referenceLine(message, epochNanos, FieldDelimiter.SOH));
                quietFile.append(source, 0, length, length, epochNanos);
                quietExpected.write(referenceLine(message, epochNanos, FieldDelimiter.SOH));
                final int size = busyFile.bufferSize();
                assertTrue(size == SessionLogFile.INITIAL_BUFFER_SIZE || size == SessionLogFile.MAX_BUFFER_SIZE,
                    "busy session's buffer at line " + line + ": " + size + " bytes, a size between the two");
                if (line % 100 == 99)
                {
                    quietFile.writeOut(); // what the writer does every flush interval
                }
            }
            assertEquals(SessionLogFile.MAX_BUFFER_SIZE, busyFile.bufferSize(), "busy session's buffer");
            assertEquals(SessionLogFile.INITIAL_BUFFER_SIZE, quietFile.bufferSize(), "quiet session's buffer");
        }
        assertArrayEquals(busyExpected.toByteArray(), Files.readAllBytes(busy), "busy");
        assertArrayEquals(quietExpected.toByteArray(), Files.readAllBytes(quiet), "quiet");
    }

    /**
     * Mostly printable text with SOH between fields, sometimes any byte at all; one message in four has no byte to
     * escape until its last few, as a well-formed message, so that it is copied eight bytes at a time.
     */
    private static byte[] randomMessage(final SplittableRandom random, final int length)
    {
        final byte[] message = new byte[length];
        final int plainUntil = random.nextInt(4) == 0 ? length - random.nextInt(Math.min(length, 12) + 1) : 0;
        for (int i = 0; i < length; i++)
        {
            final int kind = i < plainUntil ? 1 + random.nextInt(2) * 3 : random.nextInt(20);
            message[i] = (byte)(kind == 0 ? random.nextInt(256)
                : kind == 1 ? 0x01
                : kind == 2 ? "\\|\u007f\u0000\n".charAt(random.nextInt(5))
                : 0x20 + random.nextInt(0x5F));
        }
        return message;
    }

    private static byte[] referenceLine(final byte[] message, final long epochNanos, final FieldDelimiter delimiter)
    {
        final UnsafeBuffer time = new UnsafeBuffer(new byte[32]);
        final int timeLength = UtcTimestamps.encode(time, 0, epochNanos, TimestampPrecision.MICROS);
        final StringBuilder line = new StringBuilder(time.getStringWithoutLengthAscii(0, timeLength)).append(": ");
        for (final byte value : message)
        {
            final int b = value & 0xFF;
            if (b == 0x01)
            {
                line.append((char)delimiter.written());
            }
            else if (b == '\\')
            {
                line.append("\\\\");
            }
            else if (b < 0x20 || b > 0x7E || (b == '|' && delimiter == FieldDelimiter.PIPE))
            {
                line.append(String.format("\\x%02X", b));
            }
            else
            {
                line.append((char)b);
            }
        }
        return line.append('\n').toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
