package org.fixlab.bench.run;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The JIT compiler threads of the benchmark's JVMs (the client's, and the server's when it runs on this host): the CPU
 * time they have taken so far, read from {@code /proc/<pid>/task/<tid>/schedstat} of the tasks HotSpot names
 * {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>} (the kernel keeps 15 characters of a name).
 *
 * <p>Why: at every round boundary of the warm-up the client drains a round trip's orders in flight and reads the
 * host's other tasks ({@link OtherTasks}), and that reading, hundreds of small files through the JDK's file code, is
 * what pushes the JDK's methods past the compile thresholds. Their compiles ran on into the measured window: with
 * {@code -Xlog:jit+compilation} and the compile time the JVM counted from the last boundary to the last answer, the
 * client's compilers worked 0-12 ms of fixlab's paced window and 9-40 ms of the raw socket's (one window a second, 5
 * runs each, 2026-11-29), in its first milliseconds. Two threads spin on the two CPUs, so a compiler thread that runs
 * takes a CPU from one of them a scheduler tick (4 ms) at a time, and the orders due meanwhile wait. Before the window
 * starts, the client waits until the compilers have been idle for {@link #QUIET_NANOS}.
 */
public final class CompilerThreads
{
    /** How long the compilers must take no CPU time: five ticks of a 250 Hz kernel, which updates a running task's time at ticks. */
    public static final long QUIET_NANOS = 20_000_000L;
    /** The longest wait for them: a compiler still busy after it (a JIT that keeps compiling) is left to run. */
    public static final long MAX_WAIT_NANOS = 2_000_000_000L;
    /** How often the wait reads the compilers' time: each reading lists the tasks of both JVMs. */
    static final long READ_EVERY_NANOS = 2_000_000L;
    private static final String COMPILER_THREAD = "CompilerThre";

    private final Path proc;
    private final Set<Long> pids;

    CompilerThreads(final Path proc, final Set<Long> pids)
    {
        this.proc = proc;
        this.pids = Set.copyOf(pids);
    }

    /**
     * This process's compiler threads and {@code peerPid}'s (the server's, when it runs on this host; -1 when not), or
     * null where the host has no per-task schedstat (not Linux): the window then starts without the wait.
     */
    public static CompilerThreads forThisHost(final long peerPid)
    {
        final Set<Long> benchmarkPids = OtherTasks.benchmarkPids(OtherTasks.PROC, peerPid);
        return benchmarkPids == null ? null : new CompilerThreads(OtherTasks.PROC, benchmarkPids);
    }

    /**
     * The CPU time the compiler threads have taken so far, in ns. A compiler thread that HotSpot stops (it starts and
     * stops them with the length of its queue) takes its time with it: the sum goes down, which the wait counts as
     * activity as it counts any change.
     */
    public long cpuNanos()
    {
        long total = 0;
        for (final long time : perTask().values())
        {
            total += time;
        }
        return total;
    }

    /**
     * The CPU time each compiler thread has taken so far, in ns, by the task's path under {@code /proc}: two of them
     * give what the compilers took in between ({@link #cpuNanosBetween}), whatever threads HotSpot started meanwhile.
     */
    public Map<String, Long> perTask()
    {
        final Map<String, Long> times = new HashMap<>();
        for (final long pid : pids)
        {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("task")))
            {
                for (final Path task : tasks)
                {
                    final long time = compilerTime(task);
                    if (time > 0)
                    {
                        times.put(task.toString(), time);
                    }
                }
            }
            catch (final IOException ex)
            {
                // the process has ended (a server that failed): it compiles nothing more
            }
        }
        return times;
    }

    /**
     * The CPU time the compiler threads took between two readings of {@link #perTask}: each thread's growth, a thread
     * started in between counting whole. A thread that HotSpot stopped in between is not in the later reading and
     * takes its time in between with it (HotSpot keeps the first thread of each compiler, the only ones on a host of
     * two CPUs): a figure that is at least what the compilers took.
     */
    public static long cpuNanosBetween(final Map<String, Long> before, final Map<String, Long> after)
    {
        long total = 0;
        for (final Map.Entry<String, Long> task : after.entrySet())
        {
            total += Math.max(0, task.getValue() - before.getOrDefault(task.getKey(), 0L));
        }
        return total;
    }

    private static long compilerTime(final Path task)
    {
        try
        {
            if (!Files.readString(task.resolve("comm")).contains(COMPILER_THREAD))
            {
                return 0;
            }
            return OtherTasks.cpuNanos(task);
        }
        catch (final IOException | NumberFormatException ex)
        {
            return 0; // the thread ended while it was read
        }
    }

    /**
     * Runs {@code poll} until {@code cpuNanos} has not changed for {@code quietNanos}, or {@code maxWaitNanos} have
     * passed, reading it every {@code readEveryNanos} of {@code clock}. Returns how long it waited.
     */
    public static long awaitQuiet(final LongSupplier cpuNanos, final LongSupplier clock, final Runnable poll,
        final long quietNanos, final long maxWaitNanos, final long readEveryNanos)
    {
        final long start = clock.getAsLong();
        long last = cpuNanos.getAsLong();
        long quietSince = start;
        long lastRead = start;
        long now = start;
        while (now - quietSince < quietNanos && now - start < maxWaitNanos)
        {
            poll.run();
            now = clock.getAsLong();
            if (now - lastRead >= readEveryNanos)
            {
                final long cpu = cpuNanos.getAsLong();
                now = clock.getAsLong();
                lastRead = now;
                if (cpu != last)
                {
                    last = cpu;
                    quietSince = now;
                }
            }
        }
        return now - start;
    }

    /** {@link #awaitQuiet} with this host's readings and the project's periods. */
    public long awaitQuiet(final Runnable poll)
    {
        return awaitQuiet(this::cpuNanos, System::nanoTime, poll, QUIET_NANOS, MAX_WAIT_NANOS, READ_EVERY_NANOS);
    }
}
