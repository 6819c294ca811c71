package org.fixlab.engine.messagelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.session.SessionId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The message log written on the calling (engine) thread: when lines reach the file, and what a file that fails does. */
class EngineThreadMessageLogTest
{
    private static final SessionId ISLD_TW = new SessionId(FixVersion.FIX44, "ISLD", "TW");
    private static final SessionId ISLD_OTHER = new SessionId(FixVersion.FIX42, "ISLD", "OTHER");
    private static final long NOON = Instant.parse("2026-11-24T12:00:00.123456789Z").getEpochSecond() * 1_000_000_000L + 123_456_789L;
    private static final long INTERVAL = TimeUnit.MILLISECONDS.toNanos(10);
    private static final String HEARTBEAT = "8=FIX.4.4\u00019=5\u000135=0\u000110=161\u0001";
    /** An order of the piece tests, its line's length in the file, and how many of those lines a piece holds. */
    private static final String ORDER = "8=FIX.4.4\u00019=180\u000135=D\u000158=" + "z".repeat(160) + "\u000110=000\u0001";
    private static final int LINE_BYTES = "20261124-12:00:00.123456: ".length() + ORDER.length() + 1;
    private static final int PER_PIECE = EngineThreadMessageLog.FLUSH_PIECE_BYTES / LINE_BYTES;

    @TempDir
    Path dir;

    @Test
    void linesReachTheFileOnceTheOldestHasWaitedTheFlushIntervalAndEachSessionHasItsOwnFile() throws IOException
    {
        try (EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.SOH, INTERVAL))
        {
            final MessageLog tw = messageLog.forSession(ISLD_TW);
            final MessageLog other = messageLog.forSession(ISLD_OTHER);
            log(tw, HEARTBEAT, NOON);
            log(other, HEARTBEAT.replace("4.4", "4.2"), NOON + 1_000);
            log(tw, HEARTBEAT.replace("35=0", "35=1"), NOON + INTERVAL / 2);
            tw.flush(NOON + INTERVAL - 1);
            other.flush(NOON + INTERVAL - 1);
            assertEquals(0, Files.size(dir.resolve("FIX.4.4-ISLD-TW.messages.log")), "nothing is due yet");

            tw.flush(NOON + INTERVAL);
            assertEquals(List.of("20261124-12:00:00.123456: " + HEARTBEAT, "20261124-12:00:00.128456: " + HEARTBEAT.replace("35=0", "35=1")),
                lines("FIX.4.4-ISLD-TW.messages.log"), "the oldest line is due: all of the session's lines go");
            assertEquals(0, Files.size(dir.resolve("FIX.4.2-ISLD-OTHER.messages.log")), "the other session's line is not due");
            other.flush(NOON + 1_000 + INTERVAL);
            assertEquals(List.of("20261124-12:00:00.123457: " + HEARTBEAT.replace("4.4", "4.2")), lines("FIX.4.2-ISLD-OTHER.messages.log"));

            log(tw, HEARTBEAT, NOON + 5 * INTERVAL);
            tw.flush(NOON + 5 * INTERVAL + INTERVAL / 2);
            assertEquals(2, lines("FIX.4.4-ISLD-TW.messages.log").size(), "an interval counts from the first line after a write");
        }
        assertEquals(3, lines("FIX.4.4-ISLD-TW.messages.log").size(), "close writes what is left");
    }

    @Test
    void aFullBufferIsWrittenWithoutWaitingAndEveryLineArrivesInOrder() throws IOException
    {
        final int messages = 5_000;
        final byte[] body = ("8=FIX.4.4\u00019=900\u000135=D\u000158=" + "y".repeat(900) + "\u0001").getBytes(StandardCharsets.US_ASCII);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[body.length + 16]);
        for (int run = 0; run < 2; run++)
        {
            try (EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.PIPE, TimeUnit.HOURS.toNanos(1)))
            {
                final MessageLog log = messageLog.forSession(ISLD_TW);
                for (int i = 0; i < messages; i++)
                {
                    buffer.putBytes(0, body);
                    final int length = body.length + buffer.putIntAscii(body.length, run * messages + i);
                    log.message(buffer, 0, length, NOON + i);
                }
                // 4.6 MB logged, never flushed: all but the last buffer's worth (at most the largest buffer) is in the file
                assertTrue(Files.size(dir.resolve("FIX.4.4-ISLD-TW.messages.log"))
                    >= (run + 1L) * messages * body.length - SessionLogFile.MAX_BUFFER_SIZE,
                    "written as the buffer filled");
            }
        }
        final List<String> lines = lines("FIX.4.4-ISLD-TW.messages.log");
        assertEquals(2 * messages, lines.size(), "the second run appended to the first");
        for (int i = 0; i < lines.size(); i++)
        {
            assertTrue(lines.get(i).endsWith("|" + i), "line " + i + " in order");
        }
    }

    @Test
    void dueLinesGoAPieceOfWholeLinesADutyCycleWhileNewLinesQueueBehindThem() throws IOException
    {
        // three pieces and 3 lines: less than the first buffer holds, so nothing is written before it is due
        final int logged = 3 * PER_PIECE + 3;
        final Path file = dir.resolve("FIX.4.4-ISLD-TW.messages.log");
        try (EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.SOH, INTERVAL))
        {
            final MessageLog log = messageLog.forSession(ISLD_TW);
            for (int i = 0; i < logged; i++)
            {
                log(log, numbered(i), NOON + i);
            }
            log.flush(NOON + INTERVAL - 1);
            assertEquals(0, Files.size(file), "not due yet");
            for (int cycle = 1; cycle <= 3; cycle++)
            {
                log.flush(NOON + INTERVAL + cycle);
                assertEquals((long)cycle * PER_PIECE * LINE_BYTES, Files.size(file), "cycle " + cycle + ": a piece more of whole lines");
                // a line logged between two pieces waits behind the lines due before it
                log(log, numbered(logged + cycle - 1), NOON + INTERVAL + cycle);
            }
            log.flush(NOON + INTERVAL + 4);
            assertEquals((long)(logged + 3) * LINE_BYTES, Files.size(file), "the 3 lines left, and the 3 logged meanwhile");
        }
        final List<String> lines = lines("FIX.4.4-ISLD-TW.messages.log");
        assertEquals(logged + 3, lines.size());
        for (int i = 0; i < lines.size(); i++)
        {
            assertTrue(lines.get(i).endsWith(numbered(i)), "line " + i + " whole and in order");
        }
    }

    @Test
    void linesLoggedWhileDueLinesAreWrittenWaitAnIntervalOfTheirOwn() throws IOException
    {
        final Path file = dir.resolve("FIX.4.4-ISLD-TW.messages.log");
        int logged = 0;
        try (EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.SOH, INTERVAL))
        {
            final MessageLog log = messageLog.forSession(ISLD_TW);
            for (; logged < 2 * PER_PIECE; logged++)
            {
                log(log, numbered(logged), NOON + logged);
            }
            final long due = NOON + INTERVAL;
            // the session goes on logging while the two pieces due are written (less than the first buffer holds in all)
            for (int cycle = 0; cycle < 2; cycle++)
            {
                log.flush(due + cycle);
                for (int i = 0; i < PER_PIECE / 2; i++, logged++)
                {
                    log(log, numbered(logged), due + cycle);
                }
            }
            assertEquals(2L * PER_PIECE * LINE_BYTES, Files.size(file), "the two pieces that were due");
            log.flush(due + 2);
            log.flush(due + INTERVAL - 1);
            assertEquals(2L * PER_PIECE * LINE_BYTES, Files.size(file), "the lines logged since wait for an interval from when those were due");
            log.flush(due + INTERVAL);
            assertEquals((long)logged * LINE_BYTES, Files.size(file), "then they are due in their turn");
        }
        final List<String> lines = lines("FIX.4.4-ISLD-TW.messages.log");
        assertEquals(logged, lines.size());
        for (int i = 0; i < lines.size(); i++)
        {
            assertTrue(lines.get(i).endsWith(numbered(i)), "line " + i + " whole and in order");
        }
    }

    @Test
    void aDueLineLongerThanAPieceGoesWholeInOneDutyCycle() throws IOException
    {
        final String longOrder = "8=FIX.4.4\u00019=40000\u000135=D\u000158=" + "w".repeat(EngineThreadMessageLog.FLUSH_PIECE_BYTES * 2)
            + "\u000110=000\u0001";
        final Path file = dir.resolve("FIX.4.4-ISLD-TW.messages.log");
        try (EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.SOH, INTERVAL))
        {
            final MessageLog log = messageLog.forSession(ISLD_TW);
            log(log, longOrder, NOON);
            log(log, HEARTBEAT, NOON + 1);
            log.flush(NOON + INTERVAL);
            final List<String> first = lines("FIX.4.4-ISLD-TW.messages.log");
            // compared as a boolean: a failure message would print 32 KiB
            assertTrue(first.size() == 1 && first.get(0).equals("20261124-12:00:00.123456: " + longOrder),
                "the long line alone, whole: " + first.size() + " lines");
            log.flush(NOON + INTERVAL + 1);
            assertEquals(2, lines("FIX.4.4-ISLD-TW.messages.log").size(), "then the heartbeat");
            assertEquals('\n', Files.readAllBytes(file)[(int)Files.size(file) - 1]);
        }
    }

    @Test
    void aZeroIntervalWritesEachLineAsItIsLogged() throws IOException
    {
        try (EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.SOH, 0))
        {
            log(messageLog.forSession(ISLD_TW), HEARTBEAT, NOON);
            assertEquals(List.of("20261124-12:00:00.123456: " + HEARTBEAT), lines("FIX.4.4-ISLD-TW.messages.log"));
        }
    }

    @Test
    void aFileThatFailsIsReportedAndCountedWhileTheOtherSessionsLogAsBefore() throws IOException
    {
        // /dev/full takes the open and refuses every write with ENOSPC: a full disk
        Files.createSymbolicLink(dir.resolve("FIX.4.4-ISLD-TW.messages.log"), Path.of("/dev/full"));
        final int messages = 20_000;
        final EngineThreadMessageLog messageLog = new EngineThreadMessageLog(dir, FieldDelimiter.SOH, INTERVAL);
        try (messageLog)
        {
            final MessageLog failing = messageLog.forSession(ISLD_TW);
            final MessageLog healthy = messageLog.forSession(ISLD_OTHER);
            for (int i = 0; i < messages; i++)
            {
                log(failing, HEARTBEAT, NOON + i * 1_000L);
                failing.flush(NOON + i * 1_000L);
            }
            log(healthy, HEARTBEAT, NOON);
        }
        // the first buffer-full fails: its lines and every line after it are counted, none of it blocks or throws
        assertEquals(messages, messageLog.linesLost());
        assertEquals(1, lines("FIX.4.2-ISLD-OTHER.messages.log").size(), "the other session's file is unaffected");
    }

    @Test
    void aNegativeIntervalIsRefused()
    {
        final IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> new EngineThreadMessageLog(dir, FieldDelimiter.SOH, -1));
        assertTrue(refused.getMessage().contains("negative"), refused.getMessage());
    }

    /** The piece tests' order, its text's letters telling it from its neighbours. */
    private static String numbered(final int i)
    {
        return ORDER.replace('z', (char)('a' + i % 26));
    }

    private static void log(final MessageLog log, final String message, final long epochNanos)
    {
        final byte[] bytes = message.getBytes(StandardCharsets.US_ASCII);
        log.message(new UnsafeBuffer(bytes), 0, bytes.length, epochNanos);
    }

    private List<String> lines(final String file) throws IOException
    {
        return Files.readAllLines(dir.resolve(file), StandardCharsets.ISO_8859_1);
    }
}
