package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

/**
 * Gaps in a spinning loop's clock readings, fed as readings (with a thread CPU clock the test sets) so that every figure
 * is known exactly; and one case on the real clocks, whose thread sleeps through one gap and runs through another.
 */
class StallsTest
{
    private static final long TURN = 2_000; // one turn of a loop that polls and reads the clock, 2 us

    /** The thread's CPU time as the test sets it: it runs while the loop spins, and through a gap only where told. */
    private long cpu;

    private Stalls stalls()
    {
        return new Stalls(() -> cpu, null);
    }

    /**
     * Readings every TURN from {@code from} to {@code to}, the last one at {@code to}, the thread on its CPU from
     * {@code from}.
     */
    private long spin(final Stalls stalls, final long from, final long to)
    {
        long previous = from;
        for (long t = from; t < to; t += TURN)
        {
            cpu += t - previous;
            previous = t;
            stalls.tick(t);
        }
        cpu += to - previous;
        stalls.tick(to);
        return to;
    }

    @Test
    void onlyGapsOfAtLeastTheBoundCountAndAWindowCutsThoseAcrossItsEnds()
    {
        final Stalls stalls = stalls();
        long t = spin(stalls, 1_000_000, 2_000_000);
        t = spin(stalls, t + Stalls.OVER_NS - 1, 3_000_000); // just short of a stall
        t = spin(stalls, t + 500_000, 4_000_000);            // 0.5 ms at 3.0 ms
        t = spin(stalls, t + 3_000_000, 8_000_000);          // 3 ms at 4.0 ms
        spin(stalls, t + Stalls.OVER_NS, 9_000_000);         // exactly the bound, at 8.0 ms
        final Stalls.Summary all = stalls.within(0, Long.MAX_VALUE);
        assertEquals(500_000 + 3_000_000 + Stalls.OVER_NS, all.totalNanos());
        assertEquals(3_000_000, all.longestNanos());
        assertEquals(all.totalNanos(), all.offCpuNanos(), "the CPU clock stood still through every gap");
        // a window from the middle of the 3 ms stall to the middle of the last: its part of each
        final Stalls.Summary cut = stalls.within(5_000_000, 8_000_000 + Stalls.OVER_NS / 2);
        assertEquals(2_000_000 + Stalls.OVER_NS / 2, cut.totalNanos());
        assertEquals(2_000_000, cut.longestNanos());
        assertEquals(cut.totalNanos(), cut.offCpuNanos());
        assertGaps(0, 0, 0, stalls.within(1_000_000, 3_000_000));
    }

    @Test
    void aRestartIsThePauseTheRunnerChoseNotAStall()
    {
        final Stalls stalls = stalls();
        final long t = spin(stalls, 1_000_000, 2_000_000);
        stalls.restart(t + 40_000_000);
        spin(stalls, t + 50_000_000, 60_000_000);
        assertGaps(0, 0, 0, stalls.within(0, Long.MAX_VALUE));
    }

    @Test
    void theServersArraysCarryTheKeptGapsOldestFirstAndTheClientReadsThemAlike()
    {
        final Stalls stalls = stalls();
        long t = spin(stalls, 1_000_000, 2_000_000);
        t = spin(stalls, t + 400_000, 3_000_000);
        spin(stalls, t + 100_000, 4_000_000);
        final Map<String, long[]> arrays = stalls.arrays();
        assertArrayEquals(new long[] {2_000_000, 3_000_000}, arrays.get("stall_starts"));
        assertArrayEquals(new long[] {400_000, 100_000}, arrays.get("stall_lengths"));
        assertArrayEquals(new long[] {400_000, 100_000}, arrays.get("stall_off_cpu"));
        assertArrayEquals(new long[] {2}, arrays.get("stalls_recorded"));
        assertGaps(500_000, 400_000, 500_000, Stalls.within(arrays, 0, Long.MAX_VALUE));
    }

    @Test
    void aWindowOlderThanTheKeptGapsIsUnknownNotSmaller()
    {
        final Stalls stalls = stalls();
        long t = 1_000_000;
        for (int i = 0; i < Stalls.CAPACITY + 10; i++)
        {
            cpu += 1_000;
            stalls.tick(t);
            t += 150_000; // every turn a stall: CAPACITY + 9 gaps between the readings, the first nine dropped
        }
        final long firstKept = 1_000_000 + 9 * 150_000L;
        assertNull(Stalls.within(stalls.arrays(), firstKept - 1, t));
        final Stalls.Summary fromFirstKept = Stalls.within(stalls.arrays(), firstKept, t);
        assertEquals(Stalls.CAPACITY * 150_000L, fromFirstKept.totalNanos());
        assertEquals(Stalls.CAPACITY * 149_000L, fromFirstKept.offCpuNanos());
    }

    @Test
    void aGapTheThreadRanThroughIsItsOwnAndOnlyTheTimeOffItsCpuIsTheMachines()
    {
        final Stalls stalls = stalls();
        long t = spin(stalls, 1_000_000, 2_000_000);
        cpu += 700_000; // a 1 ms gap, 0.7 ms of it the thread's own system call, 0.3 ms the CPU taken away
        t = spin(stalls, t + 1_000_000, 4_000_000);
        cpu += 2_000_000; // a 2 ms gap it ran through
        t = spin(stalls, t + 2_000_000, 8_000_000);
        spin(stalls, t + 500_000, 9_000_000); // 0.5 ms off the CPU
        assertGaps(3_500_000, 2_000_000, 800_000, stalls.within(0, Long.MAX_VALUE));
        // a window from the middle of the first gap: half of its time off the CPU
        assertGaps(3_000_000, 2_000_000, 650_000, stalls.within(2_500_000, Long.MAX_VALUE));
    }

    @Test
    void theWholeWindowOffTheCpuCountsPiecesOfAnyLengthBetweenTheReadingsAtItsEnds()
    {
        final Stalls stalls = stalls();
        stalls.restart(1_000_000);                      // the window's start, read there
        long t = spin(stalls, 1_000_000, 2_000_000);
        t = spin(stalls, t + 300_000, 10_000_000);      // a 0.3 ms stall off the CPU
        t = spin(stalls, t + 50_000, 20_000_000);       // 50 us off the CPU: no stall, but off the CPU all the same
        cpu += 1_000_000;
        t = spin(stalls, t + 1_000_000, 30_000_000);    // a 1 ms gap the thread ran through
        stalls.finish(t);                               // the window's end, read there
        final Stalls.Summary window = stalls.within(1_000_000, 30_000_000);
        assertGaps(1_300_000, 1_000_000, 300_000, window);
        assertEquals(350_000, window.windowOffCpuNanos());
        // readings every CPU_SAMPLE_NS in between (here from the stall's end at 2.3 ms: 7.3, 12.3, ...), so a window
        // inside is cut from them, and in proportion between two: the 50 us piece lies between 7.3 and 12.3 ms
        assertEquals(50_000, stalls.within(7_300_000, 12_300_000).windowOffCpuNanos());
        assertEquals(25_000, stalls.within(7_300_000, 9_800_000).windowOffCpuNanos());
        // no reading before the window's start: not known
        assertEquals(-1, stalls.within(0, 30_000_000).windowOffCpuNanos());
        assertEquals(-1, stalls.within(1_000_000, 31_000_000).windowOffCpuNanos());
    }

    @Test
    void theTimeOffTheCpuThatTheJvmsPausesCoverIsKeptApartTheirOwnTimeCountedForEachSide()
    {
        final Stalls stalls = stalls();
        long t = spin(stalls, 1_000_000, 2_000_000);
        t = spin(stalls, t + 3_000_000, 10_000_000);    // a 3 ms gap off the CPU, 2.0-5.0 ms
        t = spin(stalls, t + 1_000_000, 20_000_000);    // a 1 ms gap off the CPU at 10 ms
        cpu += 2_000_000;
        t = spin(stalls, t + 2_000_000, 30_000_000);    // a 2 ms gap at 20 ms the thread ran through
        stalls.finish(t);
        final Map<String, long[]> arrays = new java.util.LinkedHashMap<>(stalls.arrays());
        // this JVM paused 2.5 ms inside the first gap, 2.0 ms in the third; the other JVM 0.4 ms across the second's end
        arrays.put("pause_ends", new long[] {4_500_000, 22_000_000});
        arrays.put("pause_lengths", new long[] {2_500_000, 2_000_000});
        final Map<String, long[]> other = Map.of("pause_ends", new long[] {11_200_000}, "pause_lengths", new long[] {400_000});
        final Stalls.Summary both = Stalls.within(arrays, 1_000_000, 30_000_000, JvmPauses.union(arrays, other));
        assertGaps(6_000_000, 3_000_000, 4_000_000, both);
        // off the CPU in the pauses: 2.5 ms of the first gap, 0.2 ms of the second; none of the third, run through
        assertEquals(2_700_000, both.pauseOffCpuNanos());
        assertEquals(4_500_000, both.pausedNanos());
        // this JVM's own pauses alone, and cut by the window
        assertEquals(2_500_000, Stalls.within(arrays, 1_000_000, 30_000_000).pauseOffCpuNanos());
        assertEquals(1_500_000 + 2_000_000, Stalls.within(arrays, 3_000_000, 30_000_000).pausedNanos());
        // no pauses logged: not known
        final Stalls.Summary unknown = Stalls.within(stalls.arrays(), 1_000_000, 30_000_000);
        assertEquals(-1, unknown.pausedNanos());
        assertEquals(-1, unknown.pauseOffCpuNanos());
    }

    private static void assertGaps(final long total, final long longest, final long offCpu, final Stalls.Summary summary)
    {
        assertEquals(total, summary.totalNanos(), summary.toString());
        assertEquals(longest, summary.longestNanos(), summary.toString());
        assertEquals(offCpu, summary.offCpuNanos(), summary.toString());
    }

    @Test
    void onTheRealClocksASleepIsOffTheCpuAndASpinIsAsMuchOffItAsTheThreadsOwnClockSays() throws InterruptedException
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final Stalls stalls = new Stalls();
        stalls.tick(System.nanoTime());
        final long sleptFrom = System.nanoTime();
        final long cpuBeforeSleep = threads.getCurrentThreadCpuTime();
        Thread.sleep(20);
        final long spunFrom = System.nanoTime();
        final long cpuBeforeSpin = threads.getCurrentThreadCpuTime();
        stalls.tick(spunFrom);
        final long spinUntil = spunFrom + 50_000_000;
        long spunTo;
        long spins = 0;
        while ((spunTo = System.nanoTime()) < spinUntil)
        {
            spins++; // no tick: a 50 ms gap the thread ran through, as in a long call into the product
        }
        final long cpuAfterSpin = threads.getCurrentThreadCpuTime();
        stalls.tick(spunTo);
        stalls.finish(System.nanoTime());
        // what the test's own readings of the thread's CPU clock say: a build machine's other tasks may take the CPU
        // for part of the spin, and then that part is off the CPU in both
        final long sleptOff = (spunFrom - sleptFrom) - (cpuBeforeSpin - cpuBeforeSleep);
        final long spunOff = (spunTo - spunFrom) - (cpuAfterSpin - cpuBeforeSpin);
        final Stalls.Summary slept = stalls.within(sleptFrom, spunFrom);
        final Stalls.Summary spun = stalls.within(spunFrom, spunTo);
        assertTrue(slept.offCpuNanos() >= 19_000_000 && slept.offCpuNanos() <= slept.totalNanos(), slept.toString());
        assertEquals(spunOff, spun.offCpuNanos(), 2_000_000, spun + " after " + spins + " spins");
        assertTrue(spun.totalNanos() - spun.offCpuNanos() >= (cpuAfterSpin - cpuBeforeSpin) - 2_000_000, spun.toString());
        assertEquals(sleptOff + spunOff, stalls.within(sleptFrom, spunTo).windowOffCpuNanos(), 2_000_000);
    }

    @Test
    void noArraysFromTheServerIsUnknown()
    {
        assertNull(Stalls.within(Map.of(), 0, 1));
        assertNull(Stalls.manifestEntry(10, null, null));
        final Map<String, Object> clientOnly = Stalls.manifestEntry(10, new Stalls.Summary(5, 3, 4, 6, 2, 1), null);
        assertEquals(Map.of("window_ns", 10L, "over_ns", Stalls.OVER_NS, "client_ns", 5L, "client_longest_ns", 3L,
            "client_off_cpu_ns", 4L, "client_window_off_cpu_ns", 6L, "client_paused_ns", 2L, "client_pause_off_cpu_ns", 1L),
            clientOnly);
        // a window the CPU readings do not cover leaves the whole-window figure out, and pauses not logged theirs
        final Map<String, Object> unknowns = Stalls.manifestEntry(10, new Stalls.Summary(5, 3, 4, -1, -1, -1), null);
        assertFalse(unknowns.containsKey("client_window_off_cpu_ns"));
        assertFalse(unknowns.containsKey("client_paused_ns"));
        assertFalse(unknowns.containsKey("client_pause_off_cpu_ns"));
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
