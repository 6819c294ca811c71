package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerThreadsTest
{
    private static final long MS = 1_000_000L;

    @TempDir
    Path proc;

    private void task(final long pid, final long tid, final String name, final long cpuNanos) throws IOException
    {
        final Path task = Files.createDirectories(proc.resolve(Long.toString(pid)).resolve("task").resolve(Long.toString(tid)));
        Files.writeString(task.resolve("comm"), name + "\n");
        Files.writeString(task.resolve("schedstat"), cpuNanos + " 1234 56\n");
    }

    @Test
    void sumsTheCompilerThreadsOfTheGivenProcessesOnly() throws IOException
    {
        task(10, 10, "java", 900_000);
        task(10, 11, "C2 CompilerThre", 7_000);
        task(10, 12, "C1 CompilerThre", 500);
        task(20, 21, "C2 CompilerThre", 30);
        task(20, 22, "VM Thread", 80_000);
        task(30, 31, "C2 CompilerThre", 1_000_000); // another JVM on the host: not the benchmark's

        assertEquals(7_530, new CompilerThreads(proc, Set.of(10L, 20L)).cpuNanos());
        assertEquals(7_500, new CompilerThreads(proc, Set.of(10L)).cpuNanos());
    }

    @Test
    void betweenTwoReadingsEachThreadCountsItsGrowthAndAThreadStartedMeanwhileAllItsTime() throws IOException
    {
        task(10, 11, "C2 CompilerThre", 7_000);
        task(10, 12, "C1 CompilerThre", 500);
        final CompilerThreads compilers = new CompilerThreads(proc, Set.of(10L));
        final Map<String, Long> before = compilers.perTask();
        task(10, 11, "C2 CompilerThre", 9_000);
        task(10, 13, "C2 CompilerThre", 4_000); // HotSpot started a second C2 thread for a longer queue

        assertEquals(6_000, CompilerThreads.cpuNanosBetween(before, compilers.perTask()));
    }

    @Test
    void aThreadStoppedBetweenTwoReadingsTakesItsTimeWithItAndNothingGoesBelowZero() throws IOException
    {
        task(10, 11, "C2 CompilerThre", 7_000);
        task(10, 13, "C2 CompilerThre", 4_000);
        final CompilerThreads compilers = new CompilerThreads(proc, Set.of(10L));
        final Map<String, Long> before = compilers.perTask();
        deleteTask(10, 13);
        task(10, 11, "C2 CompilerThre", 7_250);

        assertEquals(250, CompilerThreads.cpuNanosBetween(before, compilers.perTask()));
        assertEquals(7_250, compilers.cpuNanos(), "the sum the wait for an idle JIT reads went down: a change, as any");
    }

    private void deleteTask(final long pid, final long tid) throws IOException
    {
        final Path task = proc.resolve(Long.toString(pid)).resolve("task").resolve(Long.toString(tid));
        Files.delete(task.resolve("comm"));
        Files.delete(task.resolve("schedstat"));
        Files.delete(task);
    }

    @Test
    void aProcessThatHasEndedCountsNothing() throws IOException
    {
        task(10, 11, "C2 CompilerThre", 7_000);

        assertEquals(7_000, new CompilerThreads(proc, Set.of(10L, 99L)).cpuNanos());
    }

    @Test
    void thisJvmsCompilersHaveCompiledSomethingByNow()
    {
        final CompilerThreads compilers = CompilerThreads.forThisHost(-1);
        assumeTrue(compilers != null, "needs Linux's per-task schedstat");

        assertTrue(compilers.cpuNanos() > 0, "HotSpot's compiler threads, read from /proc, have taken CPU time");
    }

    /** A clock that moves 1 ms a reading, and compilers whose time moves until {@code busyUntil}. */
    private static long waited(final long busyUntilMs, final AtomicInteger polls)
    {
        final AtomicLong now = new AtomicLong();
        return CompilerThreads.awaitQuiet(
            () -> now.get() < busyUntilMs * MS ? now.get() : busyUntilMs * MS,
            () -> now.addAndGet(MS),
            polls::incrementAndGet,
            20 * MS, 2_000 * MS, 2 * MS);
    }

    @Test
    void waitsUntilTheCompilersHaveTakenNothingForTheQuietPeriod()
    {
        final AtomicInteger polls = new AtomicInteger();

        final long waited = waited(50, polls);

        // the last change is read at 50-52 ms; quiet from then on for 20 ms
        assertTrue(waited >= 70 * MS && waited <= 76 * MS, "waited " + waited / MS + " ms");
        assertTrue(polls.get() > 0, "the session is polled while it waits");
    }

    @Test
    void idleCompilersAreWaitedForOneQuietPeriod()
    {
        final long waited = waited(0, new AtomicInteger());

        assertTrue(waited >= 20 * MS && waited <= 22 * MS, "waited " + waited / MS + " ms");
    }

    @Test
    void compilersThatNeverStopAreLeftAfterTheLongestWait()
    {
        final long waited = waited(Long.MAX_VALUE / MS, new AtomicInteger());

        assertTrue(waited >= 2_000 * MS && waited <= 2_002 * MS, "waited " + waited / MS + " ms");
    }
}
