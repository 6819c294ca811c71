package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

/** Gaps in a spinning loop's clock readings, fed as readings so that every figure is known exactly. */
class StallsTest
{
    private static final long TURN = 2_000; // one turn of a loop that polls and reads the clock, 2 us

    /** Readings every TURN from {@code from} to {@code to}, the last one at {@code to}. */
    private static long spin(final Stalls stalls, final long from, final long to)
    {
        for (long t = from; t < to; t += TURN)
        {
            stalls.tick(t);
        }
        stalls.tick(to);
        return to;
    }

    @Test
    void onlyGapsOfAtLeastTheBoundCountAndAWindowCutsThoseAcrossItsEnds()
    {
        final Stalls stalls = new Stalls();
        long t = spin(stalls, 1_000_000, 2_000_000);
        t = spin(stalls, t + Stalls.OVER_NS - 1, 3_000_000); // just short of a stall
        t = spin(stalls, t + 500_000, 4_000_000);            // 0.5 ms at 3.0 ms
        t = spin(stalls, t + 3_000_000, 8_000_000);          // 3 ms at 4.0 ms
        spin(stalls, t + Stalls.OVER_NS, 9_000_000);         // exactly the bound, at 8.0 ms
        final Stalls.Summary all = stalls.within(0, Long.MAX_VALUE);
        assertEquals(500_000 + 3_000_000 + Stalls.OVER_NS, all.totalNanos());
        assertEquals(3_000_000, all.longestNanos());
        // a window from the middle of the 3 ms stall to the middle of the last: its part of each
        final Stalls.Summary cut = stalls.within(5_000_000, 8_000_000 + Stalls.OVER_NS / 2);
        assertEquals(2_000_000 + Stalls.OVER_NS / 2, cut.totalNanos());
        assertEquals(2_000_000, cut.longestNanos());
        assertEquals(new Stalls.Summary(0, 0), stalls.within(1_000_000, 3_000_000));
    }

    @Test
    void aRestartIsThePauseTheRunnerChoseNotAStall()
    {
        final Stalls stalls = new Stalls();
        final long t = spin(stalls, 1_000_000, 2_000_000);
        stalls.restart();
        spin(stalls, t + 50_000_000, 60_000_000);
        assertEquals(new Stalls.Summary(0, 0), stalls.within(0, Long.MAX_VALUE));
    }

    @Test
    void theServersArraysCarryTheKeptGapsOldestFirstAndTheClientReadsThemAlike()
    {
        final Stalls stalls = new Stalls();
        long t = spin(stalls, 1_000_000, 2_000_000);
        t = spin(stalls, t + 400_000, 3_000_000);
        spin(stalls, t + 100_000, 4_000_000);
        final Map<String, long[]> arrays = stalls.arrays();
        assertArrayEquals(new long[] {2_000_000, 3_000_000}, arrays.get("stall_starts"));
        assertArrayEquals(new long[] {400_000, 100_000}, arrays.get("stall_lengths"));
        assertArrayEquals(new long[] {2}, arrays.get("stalls_recorded"));
        assertEquals(new Stalls.Summary(500_000, 400_000), Stalls.within(arrays, 0, Long.MAX_VALUE));
    }

    @Test
    void aWindowOlderThanTheKeptGapsIsUnknownNotSmaller()
    {
        final Stalls stalls = new Stalls();
        long t = 1_000_000;
        for (int i = 0; i < Stalls.CAPACITY + 10; i++)
        {
            stalls.tick(t);
            t += 150_000; // every turn a stall: CAPACITY + 9 gaps between the readings, the first nine dropped
        }
        final long firstKept = 1_000_000 + 9 * 150_000L;
        assertNull(Stalls.within(stalls.arrays(), firstKept - 1, t));
        final Stalls.Summary fromFirstKept = Stalls.within(stalls.arrays(), firstKept, t);
        assertEquals(Stalls.CAPACITY * 150_000L, fromFirstKept.totalNanos());
    }

    @Test
    void noArraysFromTheServerIsUnknown()
    {
        assertNull(Stalls.within(Map.of(), 0, 1));
        assertNull(Stalls.manifestEntry(10, null, null));
        final Map<String, Object> clientOnly = Stalls.manifestEntry(10, new Stalls.Summary(5, 3), null);
        assertEquals(Map.of("window_ns", 10L, "over_ns", Stalls.OVER_NS, "client_ns", 5L, "client_longest_ns", 3L), clientOnly);
        assertFalse(clientOnly.containsKey("server_ns"));
    }

    @Test
    void onlyLoopsThatKeepTheirCpuSeeEveryStall()
    {
        assertTrue(Stalls.neverSleeps(new BusySpinIdleStrategy()));
        assertTrue(Stalls.neverSleeps(new NoOpIdleStrategy()));
        assertTrue(Stalls.neverSleeps(new YieldingIdleStrategy()));
        assertFalse(Stalls.neverSleeps(new BackoffIdleStrategy()));
        assertFalse(Stalls.neverSleeps(new SleepingIdleStrategy()));
    }
}
