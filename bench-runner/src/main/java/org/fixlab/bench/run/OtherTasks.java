package org.fixlab.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How much CPU time the rest of the host took while a run measured: every task (thread) outside the benchmark's own
 * processes, kernel threads included, read from {@code /proc/<pid>/task/<tid>/schedstat} (time on a CPU, in ns) at
 * the first (before the wait for an idle JIT that precedes the measured round: {@link CompilerThreads}) and after
 * the last measured message. The manifest records it next to the core-to-core readings
 * ({@code hardware.hosts[].other_tasks}).
 *
 * <p>Why: "never benchmark while something else runs", checked per run. A busy-spinning client and server take both
 * CPUs of a 2-CPU machine, so whatever else runs takes its CPU from one of them, a scheduler slice at a time, and stalls
 * the orders in flight. A quiet host is not an idle one: a scheduler trace of paced round trips on the VM the project
 * measures on found the kernel's memory monitor ({@code kdamond}, which pages out memory the host wants back) taking
 * a CPU for 1.0-1.4 ms every 512 ms, and at times for three 8 ms slices in a row, and a management agent of the VM
 * taking one 4 ms slice a second, for the raw socket's runs as for an engine's. Those took 0.15-2% of a run's window;
 * the pipeline's steady-state check refuses a run whose other tasks took more than 5%, as a build beside it would.
 *
 * <p>What it misses: a task that started and ended between the two readings (a short-lived process), and time spent
 * in interrupts, which the kernel charges to no task.
 *
 * <p>Beside the tasks, the time the hypervisor took the host's CPUs away ({@code stolen_ns}: the steal column of
 * {@code /proc/stat}, all CPUs together, in its 10 ms ticks). Nothing of the guest runs then, so no task's time shows
 * it: on the project's 2-CPU VM, threads spinning on both CPUs lost 45-85 ms a minute each to the host, in slices of
 * 6-17 ms, and a paced run the other tasks left alone held a 7.5 ms stall.
 */
public final class OtherTasks
{
    /** How many of the busiest other tasks the manifest names. */
    static final int BUSIEST = 3;
    /** One clock tick of {@code /proc/stat} (USER_HZ, 100 a second). */
    private static final long NANOS_PER_TICK = 10_000_000L;
    static final Path PROC = Path.of("/proc");

    private final Path proc;
    private final Set<Long> benchmarkPids;

    OtherTasks(final Path proc, final Set<Long> benchmarkPids)
    {
        this.proc = proc;
        this.benchmarkPids = Set.copyOf(benchmarkPids);
    }

    /**
     * Tasks other than this process's and {@code peerPid} (the server's, when it runs on this host; -1 when not), or null
     * where the host has no per-task schedstat (not Linux, or a kernel without it): a run is never refused for it.
     */
    public static OtherTasks forThisHost(final long peerPid)
    {
        final Set<Long> benchmarkPids = benchmarkPids(PROC, peerPid);
        return benchmarkPids == null ? null : new OtherTasks(PROC, benchmarkPids);
    }

    /**
     * This process and {@code peerPid} (the server's, when it runs on this host; -1 when not), or null where
     * {@code proc} has no per-task schedstat (not Linux, or a kernel without it).
     */
    static Set<Long> benchmarkPids(final Path proc, final long peerPid)
    {
        final long self = ProcessHandle.current().pid();
        if (!Files.isReadable(proc.resolve(Long.toString(self)).resolve("schedstat")))
        {
            return null;
        }
        // a server in this very process (as in the harness's own tests) is this process
        return peerPid > 0 && peerPid != self ? Set.of(self, peerPid) : Set.of(self);
    }

    /** A task's time on a CPU so far, in ns: the first field of its {@code schedstat}. */
    static long cpuNanos(final Path task) throws IOException
    {
        final String schedstat = Files.readString(task.resolve("schedstat"));
        final int space = schedstat.indexOf(' ');
        return Long.parseLong(space < 0 ? schedstat.strip() : schedstat.substring(0, space));
    }

    /** The time on a CPU of one task, under its name ({@code comm}). */
    record Task(String name, long cpuNanos)
    {
    }

    /**
     * Every other task's time on a CPU so far, by task id, when it was read, and the CPUs' stolen time so far (-1 where
     * {@code /proc/stat} has none).
     */
    public record Snapshot(long takenNanos, Map<Long, Task> tasks, long stolenNanos)
    {
        public Snapshot(final long takenNanos, final Map<Long, Task> tasks)
        {
            this(takenNanos, tasks, -1);
        }
    }

    /** Reads every other task; a task that ends while it is read is left out. Allocates: call it outside timing. */
    public Snapshot snapshot()
    {
        final Map<Long, Task> tasks = new HashMap<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, OtherTasks::isId))
        {
            for (final Path process : processes)
            {
                if (!benchmarkPids.contains(Long.parseLong(process.getFileName().toString())))
                {
                    readTasks(process.resolve("task"), tasks);
                }
            }
        }
        catch (final IOException ex)
        {
            // /proc itself cannot be listed: an empty reading, which the entry reports as not measured
            return new Snapshot(System.nanoTime(), Map.of());
        }
        return new Snapshot(System.nanoTime(), tasks, stolenNanos(proc.resolve("stat")));
    }

    /**
     * The steal column of {@code /proc/stat}'s first line (all CPUs), in ns; -1 where the file or the column is
     * missing (not Linux, a kernel before 2.6.11).
     */
    static long stolenNanos(final Path stat)
    {
        try (var lines = Files.lines(stat))
        {
            final String[] cpu = lines.findFirst().orElse("").trim().split("\\s+");
            // "cpu user nice system idle iowait irq softirq steal ...", in USER_HZ ticks: 100 a second on x86 and arm64
            return cpu.length > 8 && "cpu".equals(cpu[0]) ? Long.parseLong(cpu[8]) * NANOS_PER_TICK : -1;
        }
        catch (final IOException | UncheckedIOException | NumberFormatException ex)
        {
            return -1;
        }
    }

    private static void readTasks(final Path taskDir, final Map<Long, Task> into)
    {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir, OtherTasks::isId))
        {
            for (final Path task : tasks)
            {
                final long cpuNanos = cpuNanos(task);
                final String name = Files.readString(task.resolve("comm")).strip();
                into.put(Long.parseLong(task.getFileName().toString()), new Task(name, cpuNanos));
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            // the process ended while it was read: its time is lost, as for any task that ends within the window
        }
    }

    private static boolean isId(final Path path)
    {
        final String name = path.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /**
     * The manifest entry: how long the window was, the CPU time the other tasks took in it, and the busiest of them by
     * name (the threads of one name summed, a task that started within the window counted in full), and the time the
     * hypervisor took the CPUs where both readings have it. Null when either reading has no task.
     */
    public static Map<String, Object> manifestEntry(final Snapshot before, final Snapshot after)
    {
        if (before.tasks().isEmpty() || after.tasks().isEmpty())
        {
            return null;
        }
        final Map<String, Long> byName = new HashMap<>();
        long total = 0;
        for (final Map.Entry<Long, Task> e : after.tasks().entrySet())
        {
            final Task then = before.tasks().get(e.getKey());
            final Task now = e.getValue();
            // by task id, not name: a kernel worker's name says which queue it serves at the moment. Less time than
            // before is a task id the kernel gave to a new task, whose time all falls in the window
            final boolean sameTask = then != null && then.cpuNanos() <= now.cpuNanos();
            final long cpu = sameTask ? now.cpuNanos() - then.cpuNanos() : now.cpuNanos();
            if (cpu > 0)
            {
                total += cpu;
                byName.merge(now.name(), cpu, Long::sum);
            }
        }
        final List<Map.Entry<String, Long>> busiest = new ArrayList<>(byName.entrySet());
        busiest.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        final List<Map<String, Object>> named = new ArrayList<>();
        for (final Map.Entry<String, Long> e : busiest.subList(0, Math.min(BUSIEST, busiest.size())))
        {
            final Map<String, Object> task = new LinkedHashMap<>();
            task.put("task", e.getKey());
            task.put("cpu_ns", e.getValue());
            named.add(task);
        }
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("window_ns", Math.max(1, after.takenNanos() - before.takenNanos()));
        entry.put("cpu_ns", total);
        entry.put("busiest", named);
        if (before.stolenNanos() >= 0 && after.stolenNanos() >= before.stolenNanos())
        {
            entry.put("stolen_ns", after.stolenNanos() - before.stolenNanos());
        }
        return entry;
    }
}
