package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** This JVM's safepoints: the log's lines as HotSpot writes them, their spans merged, and a real collection caught. */
class JvmPausesTest
{
    @Test
    void safepointLinesGiveTheirEndAndTotalAndOtherLinesAreLeftOut()
    {
        final Map<String, long[]> arrays = JvmPauses.parse(List.of(
            "[61366269270966ns] Safepoint \"ParallelGCFailedAllocation\", Time since last: 161125136 ns, Reaching "
                + "safepoint: 5925 ns, Cleanup: 94318 ns, At safepoint: 38498276 ns, Total: 38598519 ns",
            "[61366270000000ns] some other tag's line",
            "[61367000000000ns] Safepoint \"Cleanup\", Time since last: 1000150129 ns, Reaching safepoint: 7767 ns, "
                + "Cleanup: 66976 ns, At safepoint: 3671 ns, Total: 78414 ns",
            // JDK 25 words it otherwise after the total
            "[62239372585466ns] Safepoint \"ParallelGCCollect\", Time since last: 1111128752 ns, Reaching safepoint: "
                + "3422 ns, At safepoint: 35777399 ns, Leaving safepoint: 9246 ns, Total: 35790067 ns, Threads: 0 "
                + "runnable, 10 total"));
        assertArrayEquals(new long[] {61366269270966L, 61367000000000L, 62239372585466L}, arrays.get("pause_ends"));
        assertArrayEquals(new long[] {38598519, 78414, 35790067}, arrays.get("pause_lengths"));
    }

    @Test
    void spansOfSeveralJvmsMergeWhereTheyOverlapAndAWindowCutsThem()
    {
        final Map<String, long[]> client = Map.of("pause_ends", new long[] {30, 100}, "pause_lengths", new long[] {20, 10});
        final Map<String, long[]> server = Map.of("pause_ends", new long[] {35, 60}, "pause_lengths", new long[] {10, 5});
        final JvmPauses.Intervals union = JvmPauses.union(client, server, Map.of());
        assertArrayEquals(new long[] {10, 55, 90}, union.starts());
        assertArrayEquals(new long[] {35, 60, 100}, union.ends());
        assertEquals(25 + 5 + 10, union.overlap(0, 1_000));
        assertEquals(5 + 5 + 5, union.overlap(30, 95));
        assertEquals(20 + 5, JvmPauses.within(client, 0, 95));
        assertEquals(-1, JvmPauses.within(Map.of(), 0, 95));
        assertNull(JvmPauses.union(Map.of(), null));
    }

    @Test
    void aCollectionOfThisJvmIsCaughtOnTheClockOfSystemNanoTime()
    {
        final JvmPauses pauses = JvmPauses.start();
        assertNotNull(pauses, "HotSpot logs its safepoints when asked through the DiagnosticCommand MBean");
        final long before = System.nanoTime();
        System.gc();
        final long after = System.nanoTime();
        final Map<String, long[]> arrays = pauses.arrays();
        final long paused = JvmPauses.within(arrays, before, after);
        assertTrue(paused > 0 && paused <= after - before, paused + " ns of pauses in " + (after - before) + " ns");
    }
}
