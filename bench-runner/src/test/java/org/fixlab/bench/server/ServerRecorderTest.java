package org.fixlab.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The server's progress points: taken the same way through warm-up and measurement, cut afterwards. */
class ServerRecorderTest
{
    @Test
    void pointIntervalDividesWarmupAndTotal()
    {
        assertEquals(10_000, ServerRecorder.pointInterval(100_000, 1_000_000));
        assertEquals(500, ServerRecorder.pointInterval(150_000, 50_000));
        assertEquals(1_000, ServerRecorder.pointInterval(10_000, 100_000));
        assertEquals(20, ServerRecorder.pointInterval(500, 2_000));
        assertEquals(100, ServerRecorder.pointInterval(0, 10_000));
        // awkward counts: the largest interval under the target that still divides both
        assertEquals(7, ServerRecorder.pointInterval(7_007, 1_001));
        assertEquals(1, ServerRecorder.pointInterval(1, 100));
    }

    @Test
    void streamIsTimedFromTheFirstMeasuredOrder()
    {
        final ServerRecorder recorder = new ServerRecorder(300, 1_000, false, false); // every 10 orders
        recorder.start(0);
        for (int i = 0; i < 1_300; i++)
        {
            // order i at (i + 1) us, and the client's pause for the JIT before the first measured order
            final long pause = i >= 300 ? 50_000_000L : 0;
            assertEquals(i, recorder.onRequest(0, 1_000L * (i + 1) + pause));
        }
        assertEquals(-1, recorder.onRequest(0, 0), "orders beyond the total are not counted");

        final Map<String, long[]> arrays = recorder.arrays();
        final long[] messages = arrays.get("messages");
        final long[] elapsed = arrays.get("elapsed_ns");
        assertEquals(100, messages.length);
        assertEquals(9, messages[0], "the orders after the first measured one, to the first point");
        assertEquals(9_000, elapsed[0], "1 us apart, without the pause before the first measured order");
        assertEquals(999, messages[99]);
        assertEquals(999_000, elapsed[99]);
        final long[] allocated = arrays.get("allocated");
        assertEquals(1_000, allocated[1], "allocation is counted over the measured orders");
        assertTrue(allocated[0] >= 0);
    }

    @Test
    void aStreamTimesTheCpuReferenceAtEachMeasuredPoint()
    {
        final ServerRecorder recorder = new ServerRecorder(300, 1_000, false, true); // every 10 orders
        recorder.start(0);
        ordersMicrosecondApart(recorder, 1_300);
        final Map<String, long[]> arrays = recorder.arrays();
        final long[] reference = arrays.get("cpu_reference_ns");
        assertEquals(arrays.get("elapsed_ns").length, reference.length, "one reading per measured point");
        for (final long ns : reference)
        {
            assertTrue(ns > 0, "a reading of " + ns + " ns");
        }
    }

    @Test
    void withoutTheReferenceNothingIsTimedOrSent()
    {
        final ServerRecorder recorder = new ServerRecorder(300, 1_000, false, false);
        ordersMicrosecondApart(recorder, 1_300);
        assertFalse(recorder.arrays().containsKey("cpu_reference_ns"));
    }

    /**
     * The manifest's entry: the median, and a 90th percentile above the usual readings exactly when more than a tenth
     * of them are slowed, which the pipeline's rule reads as a stream slowed for part of its window.
     */
    @Test
    void theManifestEntrySaysWhetherMoreThanATenthOfTheReadingsWereSlowed()
    {
        final long[] tenthSlowed = readings(100, 10);
        final Map<String, Object> atATenth = CpuReference.manifestEntry(tenthSlowed);
        assertEquals(100, atATenth.get("readings"));
        assertEquals(3_400L, atATenth.get("p50_ns"));
        assertEquals(3_400L, atATenth.get("p90_ns"), "a tenth slowed leaves the 90th percentile usual");
        final Map<String, Object> overATenth = CpuReference.manifestEntry(readings(100, 11));
        assertEquals(3_400L, overATenth.get("p50_ns"), "the median does not see it");
        assertEquals(7_000L, overATenth.get("p90_ns"));
        assertEquals(7_000L, tenthSlowed[0], "the readings are not sorted in place");
        assertNull(CpuReference.manifestEntry(new long[0]));
    }

    /** {@code count} readings, the first {@code slowed} of them (7,000 ns) before the usual ones (3,400 ns). */
    private static long[] readings(final int count, final int slowed)
    {
        final long[] readings = new long[count];
        for (int i = 0; i < count; i++)
        {
            readings[i] = i < slowed ? 7_000 : 3_400;
        }
        return readings;
    }

    @Test
    void theReferenceFindsEveryOrdersEnd()
    {
        assertEquals(10, CpuReference.endsOfOrders(CpuReference.orders()));
    }

    /**
     * The launcher compiles the reading on its own in every product's JVM: its command names this class, so a rename
     * that left the command behind (the JVM ignores a pattern that matches nothing) fails here.
     */
    @Test
    void theLauncherKeepsTheReferenceOutOfTheProductsCode() throws Exception
    {
        final String launcher = Files.readString(Path.of("bin/fixlab-bench"));
        final Matcher command = Pattern.compile("-XX:CompileCommand=dontinline,([\\w.]+)::\\*").matcher(launcher);
        assertTrue(command.find(), "bin/fixlab-bench has no dontinline command");
        assertEquals(CpuReference.class.getName(), command.group(1));
        assertTrue(launcher.contains("java_opts=\"$engine_flags $harness_flags "), "every JVM of the launcher gets it");
    }

    @Test
    void aPointOnTheFirstMeasuredOrderCountsNoOrderAfterIt()
    {
        final ServerRecorder recorder = new ServerRecorder(7, 3, false, false); // an interval of 1: a point on every order
        ordersMicrosecondApart(recorder, 10);
        final Map<String, long[]> arrays = recorder.arrays();
        assertArrayEquals(new long[] {1, 2}, arrays.get("messages"));
        assertArrayEquals(new long[] {1_000, 2_000}, arrays.get("elapsed_ns"));
    }

    @Test
    void aStreamReadsTheClockOnlyForTheOrdersItsPointsKeep()
    {
        final ServerRecorder recorder = new ServerRecorder(300, 1_000, false, false); // every 10 orders
        final long before = System.nanoTime();
        for (int i = 0; i < 1_300; i++)
        {
            final long callback = recorder.callbackNanos();
            if ((i + 1) % 10 == 0 || i % 10 == 0)
            {
                assertTrue(callback >= before, "order " + i + " is a point's or the next one's: its callback time is read");
            }
            else
            {
                assertEquals(0, callback, "order " + i + " is neither a point's nor the next one's: the clock is not read");
            }
            recorder.onRequest(0, callback);
        }
        final long[] elapsed = recorder.arrays().get("elapsed_ns");
        assertEquals(100, elapsed.length);
        for (final long nanos : elapsed)
        {
            assertTrue(nanos >= 0, java.util.Arrays.toString(elapsed));
        }
        final ServerRecorder internal = new ServerRecorder(2, 3, true, false);
        for (int i = 0; i < 5; i++)
        {
            assertTrue(internal.callbackNanos() >= before, "an internal run keeps every order's callback time");
            internal.onRequest(0, 0);
        }
    }

    @Test
    void withoutWarmupTheStreamStartsAtStart()
    {
        final ServerRecorder recorder = new ServerRecorder(0, 200, false, false); // every 2 orders
        recorder.start(500);
        ordersMicrosecondApart(recorder, 200);
        final Map<String, long[]> arrays = recorder.arrays();
        assertEquals(2, arrays.get("messages")[0]);
        assertEquals(1_500, arrays.get("elapsed_ns")[0]);
        assertEquals(198, arrays.get("allocated")[1], "without a warm-up, from the first point");
    }

    @Test
    void internalPointsKeepEveryOrdersTimestamps()
    {
        final ServerRecorder recorder = new ServerRecorder(2, 3, true, false);
        for (int i = 0; i < 5; i++)
        {
            final int index = recorder.onRequest(10 + i, 20 + i);
            recorder.onAnswer(index, 30 + i);
            recorder.onAnswerWritten(index, 40 + i);
        }
        final Map<String, long[]> arrays = recorder.arrays();
        assertArrayEquals(new long[] {10, 11, 12, 13, 14}, arrays.get("t3"));
        assertArrayEquals(new long[] {20, 21, 22, 23, 24}, arrays.get("t4"));
        assertArrayEquals(new long[] {30, 31, 32, 33, 34}, arrays.get("t1"));
        assertArrayEquals(new long[] {40, 41, 42, 43, 44}, arrays.get("t2"));
        assertTrue(recorder.complete());
    }

    /** Order i's callback at (i + 1) us, the others' times not kept. */
    private static void ordersMicrosecondApart(final ServerRecorder recorder, final int orders)
    {
        for (int i = 0; i < orders; i++)
        {
            recorder.onRequest(0, 1_000L * (i + 1));
        }
    }
}
