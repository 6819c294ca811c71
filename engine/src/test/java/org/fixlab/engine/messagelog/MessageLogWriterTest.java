package org.fixlab.engine.messagelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.session.SessionId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The message log's files, written by its own thread from what the calling thread hands it. */
class MessageLogWriterTest
{
    private static final SessionId ISLD_TW = new SessionId(FixVersion.FIX44, "ISLD", "TW");
    private static final SessionId ISLD_OTHER = new SessionId(FixVersion.FIX42, "ISLD", "OTHER");
    private static final long NOON = Instant.parse("2026-11-24T12:00:00.123456789Z").getEpochSecond() * 1_000_000_000L + 123_456_789L;

    @TempDir
    Path dir;

    @Test
    void eachMessageIsOneLineOfQuickFixJsFormatInItsSessionsFile() throws IOException
    {
        try (MessageLogWriter writer = new MessageLogWriter(dir, FieldDelimiter.SOH, MessageLogWriter.MIN_BUFFER_SIZE))
        {
            final MessageLog tw = writer.forSession(ISLD_TW);
            final MessageLog other = writer.forSession(ISLD_OTHER);
            log(tw, "8=FIX.4.4\u00019=5\u000135=0\u000110=161\u0001", NOON);
            log(other, "8=FIX.4.2\u00019=5\u000135=1\u000110=162\u0001", NOON + 1_000);
            log(tw, "8=FIX.4.4\u00019=5\u000135=D\u000110=163\u0001", NOON + 2_000);
        }
        assertEquals(List.of("20261124-12:00:00.123456: 8=FIX.4.4\u00019=5\u000135=0\u000110=161\u0001",
            "20261124-12:00:00.123458: 8=FIX.4.4\u00019=5\u000135=D\u000110=163\u0001"), lines("FIX.4.4-ISLD-TW.messages.log"));
        assertEquals(List.of("20261124-12:00:00.123457: 8=FIX.4.2\u00019=5\u000135=1\u000110=162\u0001"),
            lines("FIX.4.2-ISLD-OTHER.messages.log"));
    }

    @Test
    void garbledBytesAreEscapedSoAMessageStaysOneLineOfPrintableText() throws IOException
    {
        final byte[] garbled = "8=FIX.4.4\u000158=a\nb\r\u001b[31m<script>alert(1)</script>\\|\u0000\u0001".getBytes(StandardCharsets.ISO_8859_1);
        final byte[] withHighBytes = new byte[garbled.length + 2];
        System.arraycopy(garbled, 0, withHighBytes, 0, garbled.length);
        withHighBytes[garbled.length] = (byte)0xFF;
        withHighBytes[garbled.length + 1] = (byte)0x80;
        for (final FieldDelimiter delimiter : FieldDelimiter.values())
        {
            final Path folder = Files.createDirectories(dir.resolve(delimiter.key()));
            try (MessageLogWriter writer = new MessageLogWriter(folder, delimiter, MessageLogWriter.MIN_BUFFER_SIZE))
            {
                final MessageLog log = writer.forSession(ISLD_TW);
                log.message(new UnsafeBuffer(withHighBytes), 0, withHighBytes.length, NOON);
            }
            final byte[] file = Files.readAllBytes(folder.resolve("FIX.4.4-ISLD-TW.messages.log"));
            final String soh = delimiter == FieldDelimiter.SOH ? "\u0001" : "|";
            final String pipe = delimiter == FieldDelimiter.SOH ? "|" : "\\x7C";
            assertEquals("20261124-12:00:00.123456: 8=FIX.4.4" + soh + "58=a\\x0Ab\\x0D\\x1B[31m<script>alert(1)</script>\\\\" + pipe
                + "\\x00" + soh + "\\xFF\\x80\n", new String(file, StandardCharsets.ISO_8859_1), delimiter.key());
            for (int i = 0; i < file.length - 1; i++)
            {
                final int b = file[i] & 0xFF;
                assertTrue(b >= 0x20 && b <= 0x7E || (b == 0x01 && delimiter == FieldDelimiter.SOH), "byte " + b + " at " + i);
            }
        }
    }

    @Test
    void aMessageLongerThanTheRingTakesIsLoggedTruncatedAndSaysHowMuchIsMissing() throws IOException
    {
        final byte[] huge = new byte[MessageLogWriter.MIN_BUFFER_SIZE / 4];
        java.util.Arrays.fill(huge, (byte)'x');
        try (MessageLogWriter writer = new MessageLogWriter(dir, FieldDelimiter.SOH, MessageLogWriter.MIN_BUFFER_SIZE))
        {
            writer.forSession(ISLD_TW).message(new UnsafeBuffer(huge), 0, huge.length, NOON);
        }
        final String line = lines("FIX.4.4-ISLD-TW.messages.log").get(0);
        final int logged = MessageLogWriter.MIN_BUFFER_SIZE / 8 - 16; // the ring's largest record less our header
        assertEquals("20261124-12:00:00.123456: " + "x".repeat(logged) + " [message truncated in the log: "
            + (huge.length - logged) + " more bytes]", line);
    }

    @Test
    void everyMessageReachesTheFileInOrderWhenTheWriterFallsBehindAndAfterARestartTheFileGrows() throws IOException
    {
        final int messages = 20_000;
        final byte[] body = ("8=FIX.4.4\u00019=900\u000135=D\u000158=" + "y".repeat(900) + "\u0001").getBytes(StandardCharsets.US_ASCII);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[body.length + 16]);
        for (int run = 0; run < 2; run++)
        {
            try (MessageLogWriter writer = new MessageLogWriter(dir, FieldDelimiter.PIPE, MessageLogWriter.MIN_BUFFER_SIZE))
            {
                final MessageLog log = writer.forSession(ISLD_TW);
                for (int i = 0; i < messages; i++)
                {
                    // 20 MB through a 1 MiB ring: the caller waits for room, nothing is dropped
                    buffer.putBytes(0, body);
                    final int length = body.length + buffer.putIntAscii(body.length, run * messages + i);
                    log.message(buffer, 0, length, NOON + i);
                }
            }
        }
        final List<String> lines = lines("FIX.4.4-ISLD-TW.messages.log");
        assertEquals(2 * messages, lines.size());
        for (int i = 0; i < lines.size(); i++)
        {
            assertTrue(lines.get(i).endsWith("|" + i), "line " + i + " in order");
        }
    }

    @Test
    void aFileThatFailsIsReportedAndCountedWhileTheCallerIsNeverHeldUp() throws IOException
    {
        // /dev/full takes the open and refuses every write with ENOSPC: a full disk
        Files.createSymbolicLink(dir.resolve("FIX.4.4-ISLD-TW.messages.log"), Path.of("/dev/full"));
        final byte[] message = "8=FIX.4.4\u00019=5\u000135=0\u000110=161\u0001".getBytes(StandardCharsets.US_ASCII);
        final int messages = 200_000;
        final MessageLogWriter writer = new MessageLogWriter(dir, FieldDelimiter.SOH, MessageLogWriter.MIN_BUFFER_SIZE);
        try (writer)
        {
            final MessageLog failing = writer.forSession(ISLD_TW);
            final MessageLog healthy = writer.forSession(ISLD_OTHER);
            for (int i = 0; i < messages; i++)
            {
                failing.message(new UnsafeBuffer(message), 0, message.length, NOON);
            }
            healthy.message(new UnsafeBuffer(message), 0, message.length, NOON);
        }
        assertEquals(messages, writer.linesLost(), "every line of the failing file, the failed buffer's included");
        assertEquals(1, lines("FIX.4.2-ISLD-OTHER.messages.log").size(), "the other session's file is unaffected");
    }

    private static void log(final MessageLog log, final String message, final long epochNanos)
    {
        final byte[] bytes = message.getBytes(StandardCharsets.US_ASCII);
        log.message(new UnsafeBuffer(bytes), 0, bytes.length, epochNanos);
    }

    private List<String> lines(final String file) throws IOException
    {
        return new ArrayList<>(Files.readAllLines(dir.resolve(file), StandardCharsets.ISO_8859_1));
    }
}
