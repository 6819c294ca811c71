package org.fixlab.bench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/**
 * Progress lines come during the warm-up and once at the end, never while the measured round runs: a line printed
 * from the compiled loop there sent it back to the interpreter inside the measured window.
 */
class ProgressTest
{
    private static final long INTERVAL_NANOS = 1_000_000L;

    @Test
    void warmUpRoundsPrintTheMeasuredRoundDoesNotAndTheEndDoes()
    {
        final List<String> lines = printed(progress ->
        {
            progress.startRound(0);
            pastTheInterval();
            progress.tick(1024);
            progress.startRound(1);
            pastTheInterval();
            progress.tick(2048);
            progress.startRound(2);
            pastTheInterval();
            progress.tick(3072);
            pastTheInterval();
            progress.tick(4096);
            progress.finish();
        }, 3, false);

        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("1,024 / 5,000 messages"), lines.get(0));
        assertTrue(lines.get(1).contains("2,048 / 5,000 messages"), lines.get(1));
        assertTrue(lines.get(2).contains("5,000 / 5,000 messages"), lines.get(2));
    }

    @Test
    void aRunWithoutWarmUpIsMeasuredFromItsStartAndQuietPrintsNothing()
    {
        final List<String> withoutWarmUp = printed(ProgressTest::firstRoundThenFinish, 1, false);
        assertEquals(1, withoutWarmUp.size(), withoutWarmUp.toString());
        assertTrue(withoutWarmUp.get(0).contains("5,000 / 5,000 messages"), withoutWarmUp.get(0));

        assertEquals(List.of(), printed(ProgressTest::firstRoundThenFinish, 2, true));
    }

    private static void firstRoundThenFinish(final Progress progress)
    {
        progress.startRound(0);
        pastTheInterval();
        progress.tick(1024);
        progress.finish();
    }

    private static void pastTheInterval()
    {
        final long until = System.nanoTime() + 2 * INTERVAL_NANOS;
        while (System.nanoTime() < until)
        {
            LockSupport.parkNanos(INTERVAL_NANOS);
        }
    }

    private static List<String> printed(final java.util.function.Consumer<Progress> run, final int rounds, final boolean quiet)
    {
        final PrintStream err = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            run.accept(new Progress("throughput test/config", 5_000, quiet, rounds, INTERVAL_NANOS));
        }
        finally
        {
            System.setErr(err);
        }
        final String text = captured.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
}
