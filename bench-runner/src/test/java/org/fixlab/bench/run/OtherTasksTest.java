package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader on this host's real /proc, with a real busy process of a name no other task has. */
class OtherTasksTest
{
    /** A shell loop with a fixed amount of work; it then says so and waits on its input, still alive. */
    private static final String BUSY_THEN_WAIT = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done; read x";

    @TempDir
    Path dir;

    /** /bin/sh under a name of its own: the kernel names a task after its executable. */
    private Process busyShell() throws Exception
    {
        final Path shell = dir.resolve("fixlab-busy");
        Files.copy(Path.of("/bin/sh"), shell);
        assertTrue(shell.toFile().setExecutable(true));
        return new ProcessBuilder(shell.toString(), "-c", BUSY_THEN_WAIT).start();
    }

    private static void awaitDone(final Process process) throws Exception
    {
        final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("done", out.readLine());
    }

    @SuppressWarnings("unchecked")
    private static long busiestNamed(final Map<String, Object> entry, final String name)
    {
        return ((List<Map<String, Object>>)entry.get("busiest")).stream().filter(t -> name.equals(t.get("task")))
            .mapToLong(t -> (Long)t.get("cpu_ns")).sum();
    }

    @Test
    void aProcessThatRanInTheWindowIsCountedUnderItsName() throws Exception
    {
        final OtherTasks reader = OtherTasks.forThisHost(-1);
        assumeTrue(reader != null, "needs Linux's per-task schedstat");
        final OtherTasks.Snapshot before = reader.snapshot();
        final Process busy = busyShell();
        try
        {
            awaitDone(busy);
            final Duration busyCpu = busy.info().totalCpuDuration().orElseThrow();
            final Map<String, Object> entry = OtherTasks.manifestEntry(before, reader.snapshot());
            final long named = busiestNamed(entry, "fixlab-busy");
            // the kernel's clock-tick accounting of the same process (10 ms ticks) against schedstat's nanoseconds
            assertTrue(Math.abs(named - busyCpu.toNanos()) <= 25_000_000L, named + " ns against " + busyCpu);
            assertTrue(named >= 10_000_000L, "the loop takes tens of milliseconds: " + named + " ns");
            assertTrue((Long)entry.get("cpu_ns") >= named);
            assertTrue((Long)entry.get("window_ns") > 0);
        }
        finally
        {
            busy.destroy();
        }
    }

    @Test
    void theBenchmarksOwnProcessesAreLeftOut() throws Exception
    {
        assumeTrue(OtherTasks.forThisHost(-1) != null, "needs Linux's per-task schedstat");
        final Process peer = busyShell();
        final AtomicBoolean stop = new AtomicBoolean();
        final Thread own = new Thread(() ->
        {
            while (!stop.get())
            {
                Thread.onSpinWait();
            }
        }, "fixlab-own");
        try
        {
            // the peer as the server would be: its pid given to the reader
            final OtherTasks reader = OtherTasks.forThisHost(peer.pid());
            final OtherTasks.Snapshot before = reader.snapshot();
            own.start();
            awaitDone(peer);
            Thread.sleep(50);
            final Map<String, Object> entry = OtherTasks.manifestEntry(before, reader.snapshot());
            assertEquals(0, busiestNamed(entry, "fixlab-busy"));
            assertEquals(0, busiestNamed(entry, "fixlab-own"));
        }
        finally
        {
            stop.set(true);
            own.join();
            peer.destroy();
        }
    }

    @Test
    void theEntryCountsByTaskIdAndNamesTheBusiestThree()
    {
        final OtherTasks.Snapshot before = new OtherTasks.Snapshot(1_000, Map.of(
            1L, new OtherTasks.Task("kworker/0:1-events", 5_000),
            2L, new OtherTasks.Task("kdamond.0", 100),
            3L, new OtherTasks.Task("agent", 9_000),
            4L, new OtherTasks.Task("agent", 1_000)));
        final OtherTasks.Snapshot after = new OtherTasks.Snapshot(11_000, Map.of(
            // a kernel worker's name changes with the queue it serves: still the same task
            1L, new OtherTasks.Task("kworker/0:1-mm_percpu_wq", 5_400),
            2L, new OtherTasks.Task("kdamond.0", 1_300),
            // less time than before: the id went to a new task, all of whose time is in the window
            3L, new OtherTasks.Task("agent", 700),
            4L, new OtherTasks.Task("agent", 1_100),
            // started within the window
            5L, new OtherTasks.Task("cron", 50),
            6L, new OtherTasks.Task("idle", 0)));
        final Map<String, Object> entry = OtherTasks.manifestEntry(before, after);
        assertEquals(10_000L, entry.get("window_ns"));
        assertEquals(400L + 1_200 + 700 + 100 + 50, entry.get("cpu_ns"));
        assertEquals(List.of(
            Map.of("task", "kdamond.0", "cpu_ns", 1_200L),
            Map.of("task", "agent", "cpu_ns", 800L),
            Map.of("task", "kworker/0:1-mm_percpu_wq", "cpu_ns", 400L)), entry.get("busiest"));
    }

    @Test
    void theHostsStolenTimeIsTheStealColumnOfProcStatInTicks() throws Exception
    {
        final Path proc = Files.createDirectories(dir.resolve("proc"));
        final Path task = Files.createDirectories(proc.resolve("42").resolve("task").resolve("42"));
        Files.writeString(task.resolve("schedstat"), "1000 0 1\n");
        Files.writeString(task.resolve("comm"), "agent\n");
        final OtherTasks reader = new OtherTasks(proc, Set.of());
        Files.writeString(proc.resolve("stat"), "cpu  10 0 20 3000 4 0 5 357 0 0\ncpu0 5 0 10 1500 2 0 3 180 0 0\n");
        final OtherTasks.Snapshot before = reader.snapshot();
        Files.writeString(proc.resolve("stat"), "cpu  12 0 21 3100 4 0 5 360 0 0\ncpu0 6 0 10 1550 2 0 3 182 0 0\n");
        final OtherTasks.Snapshot after = reader.snapshot();
        assertEquals(3_570_000_000L, before.stolenNanos());
        assertEquals(30_000_000L, OtherTasks.manifestEntry(before, after).get("stolen_ns"));
    }

    @Test
    void noStealColumnIsNoStolenTimeNotZero() throws Exception
    {
        Files.writeString(dir.resolve("stat"), "cpu  10 0 20 3000 4 0 5\n"); // a kernel before steal time
        assertEquals(-1, OtherTasks.stolenNanos(dir.resolve("stat")));
        assertEquals(-1, OtherTasks.stolenNanos(dir.resolve("missing")));
        final OtherTasks.Snapshot some = new OtherTasks.Snapshot(1, Map.of(1L, new OtherTasks.Task("x", 1)));
        assertFalse(OtherTasks.manifestEntry(some, some).containsKey("stolen_ns"));
    }

    @Test
    void thisLinuxHostReportsItsStolenTime()
    {
        final OtherTasks reader = OtherTasks.forThisHost(-1);
        assumeTrue(reader != null, "needs Linux's per-task schedstat");
        final OtherTasks.Snapshot before = reader.snapshot();
        final OtherTasks.Snapshot after = reader.snapshot();
        assertTrue(before.stolenNanos() >= 0, "a Linux /proc/stat has the steal column");
        assertTrue((Long)OtherTasks.manifestEntry(before, after).get("stolen_ns") >= 0);
    }

    @Test
    void anEmptyReadingIsNotAnEntry()
    {
        final OtherTasks.Snapshot empty = new OtherTasks.Snapshot(0, Map.of());
        final OtherTasks.Snapshot some = new OtherTasks.Snapshot(1, Map.of(1L, new OtherTasks.Task("x", 1)));
        assertNull(OtherTasks.manifestEntry(empty, some));
        assertNull(OtherTasks.manifestEntry(some, empty));
        assertFalse(new OtherTasks(dir, Set.of()).snapshot().tasks().size() > 0, "a folder with no processes reads empty");
    }
}
