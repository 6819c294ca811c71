package org.fixlab.bench.run;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Where a spinning thread stood still: every gap of at least {@link #OVER_NS} between two consecutive readings of the
 * clock in its loop, kept in preallocated arrays (the latest {@link #CAPACITY} of them), so that recording one
 * allocates nothing.
 *
 * <p>Why: a paced run's p99 is the machine's once a stall of either benchmark thread holds up more than a sliver of
 * its orders, and what stalls them comes from several places: the host's other tasks, the hypervisor taking a CPU
 * (steal, which no task of the guest shows and {@code /proc/stat} counts only in 10 ms ticks), interrupts, a
 * safepoint. A thread that never sleeps sees all of them alike, as a gap in its own clock readings: a loop that polls
 * and reads the clock takes a few microseconds, a scheduler slice or a steal a millisecond and more. The client spins
 * on the clock between paced sends and the fixlab and raw-socket servers spin on their poll loop, so between them the
 * two threads see every stall of a paced run from {@link #OVER_NS} up, to the nanosecond.
 *
 * <p>A gap is not always the machine's, though: the client's thread also runs the client's side of the product, and a
 * server's thread the product's, so a long system call of the product (a log write into new page-cache pages) is a gap
 * too, and one the product's figures must keep. Which is which the thread's CPU clock tells: at each gap's end the
 * thread reads its own CPU time, and the part of the gap it was not on its CPU (waiting for one while another task
 * ran, the hypervisor's steal, which Linux keeps off a task's clock, or blocked) is the machine's, kept with the gap;
 * the rest it spent running its own code. The reading costs about half a microsecond, paid only after a gap of
 * {@link #OVER_NS} and at a restart. Not every gap on the CPU is the thread's own: an interrupt's time counts to the
 * task it interrupts (on kernels without IRQ_TIME_ACCOUNTING), and so does time the hypervisor spends on a CPU without
 * reporting it as steal. A thread spinning on the clock alone on the project's VM showed 0-0.09% of its time in such
 * gaps, a fifth of what the steady-state rule allows at most. Nor is every gap off the CPU the machine's: in a
 * safepoint (a garbage collection's pause) the JVM itself holds the thread, for the product that allocated, so the part
 * of the gaps' time off the CPU that the JVMs' safepoints cover is kept apart (see {@link JvmPauses}).
 */
public final class Stalls
{
    /**
     * The shortest gap counted. Above what every run pays alike: a loop's turn (a few microseconds, a send over
     * loopback up to tens) and the interruptions of the project's VM, 25-30 us each, 310-370 a second on each CPU,
     * most of them the kernel's timer tick 4.00 ms apart (every gap of 3 us and more, recorded in six paced runs: 1-13
     * of them a run between 50 and 100 us). Below the slices of other tasks and of the host (1-17 ms), which hold up
     * tens of orders at a time.
     */
    public static final long OVER_NS = 100_000;
    /** How many of the latest gaps are kept, a power of two: a paced run stalls tens of times a second. */
    static final int CAPACITY = 1 << 14;
    /**
     * How often the thread's CPU clock is read besides at a gap's end, so that its time off the CPU in all (in pieces of
     * any length) can be cut to any window: the latest {@link #CAPACITY} readings keep 80 s and more.
     */
    static final long CPU_SAMPLE_NS = 5_000_000;

    private final long[] starts = new long[CAPACITY];
    private final long[] lengths = new long[CAPACITY];
    /** Of each gap, how long the thread was off its CPU. */
    private final long[] offCpu = new long[CAPACITY];
    /** Every reading of the thread's CPU clock: when (System.nanoTime()) and the CPU time then. */
    private final long[] cpuSampleAt = new long[CAPACITY];
    private final long[] cpuSampleCpu = new long[CAPACITY];
    private long cpuSamples;
    /** The calling thread's CPU time in nanoseconds. */
    private final LongSupplier threadCpuClock;
    /** This JVM's safepoints, or null where not logged. */
    private final JvmPauses pauses;
    /** Gaps recorded since construction, kept or not. */
    private long recorded;
    /** The previous reading, or 0 when the next reading starts afresh. */
    private long last;
    /** The reading at which the thread's CPU time was last read, and that CPU time. */
    private long cpuReadAt;
    private long cpuAtRead;

    /**
     * Gaps of the calling thread, split by its CPU clock (which the JVM reads from the kernel to the nanosecond), and
     * this JVM's safepoints, which take the thread off its CPU for the product's runtime (see {@link JvmPauses}).
     */
    public Stalls()
    {
        this(currentThreadCpuClock(), JvmPauses.start());
    }

    /** Gaps split by {@code threadCpuClock}, the calling thread's CPU time in nanoseconds; pauses from {@code pauses}. */
    Stalls(final LongSupplier threadCpuClock, final JvmPauses pauses)
    {
        this.threadCpuClock = threadCpuClock;
        this.pauses = pauses;
    }

    private static LongSupplier currentThreadCpuClock()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported())
        {
            throw new IllegalStateException("this JVM cannot read a thread's CPU time, which tells the machine's stalls "
                + "from the product's");
        }
        threads.setThreadCpuTimeEnabled(true);
        return threads::getCurrentThreadCpuTime;
    }

    /**
     * Whether a loop idling with {@code idle} keeps its CPU, so that any gap in its clock readings is a stall: it spins,
     * or yields only to a task that is ready to run (which then stalls it). A strategy that parks or sleeps makes gaps
     * of its own choosing.
     */
    public static boolean neverSleeps(final IdleStrategy idle)
    {
        return idle instanceof BusySpinIdleStrategy || idle instanceof NoOpIdleStrategy || idle instanceof YieldingIdleStrategy;
    }

    /** One reading of {@link System#nanoTime()} in the spinning loop. */
    public void tick(final long nowNanos)
    {
        final long gap = nowNanos - last;
        if (last == 0 || nowNanos - cpuReadAt >= CPU_SAMPLE_NS && gap < OVER_NS)
        {
            readCpu(nowNanos);
        }
        else if (gap >= OVER_NS)
        {
            final long cpuBefore = cpuAtRead;
            final long wallSinceRead = nowNanos - cpuReadAt;
            readCpu(nowNanos);
            // off the CPU since the last reading, all of it put in this gap: between gaps the thread spins, and loses
            // its CPU only for less than OVER_NS at a time, well under 0.01% of its time on the project's VM
            final long off = wallSinceRead - (cpuAtRead - cpuBefore);
            final int slot = (int)(recorded++ & (CAPACITY - 1));
            starts[slot] = last;
            lengths[slot] = gap;
            offCpu[slot] = Math.max(0, Math.min(gap, off));
        }
        last = nowNanos;
    }

    private void readCpu(final long nowNanos)
    {
        cpuReadAt = nowNanos;
        cpuAtRead = threadCpuClock.getAsLong();
        final int slot = (int)(cpuSamples++ & (CAPACITY - 1));
        cpuSampleAt[slot] = nowNanos;
        cpuSampleCpu[slot] = cpuAtRead;
    }

    /**
     * The next reading starts afresh: the time since the last is the runner's own (a wait it chose, not a stall). The
     * CPU clock is read now, so that a window from {@code nowNanos} on has its time off the CPU.
     */
    public void restart(final long nowNanos)
    {
        last = 0;
        readCpu(nowNanos);
    }

    /** A last reading of the CPU clock, at the end of a window or of the loop. */
    public void finish(final long nowNanos)
    {
        readCpu(nowNanos);
    }

    /**
     * The kept gaps, oldest first, as the server sends them to the client: starts, lengths, the part of each off the
     * CPU, and how many were recorded; the kept readings of the CPU clock, oldest first; and this JVM's safepoints
     * where they were logged (read from their file: call it after the window).
     */
    public Map<String, long[]> arrays()
    {
        final Map<String, long[]> arrays = new LinkedHashMap<>();
        arrays.put("stall_starts", oldestFirst(starts, recorded));
        arrays.put("stall_lengths", oldestFirst(lengths, recorded));
        arrays.put("stall_off_cpu", oldestFirst(offCpu, recorded));
        arrays.put("stalls_recorded", new long[] {recorded});
        arrays.put("cpu_sample_at", oldestFirst(cpuSampleAt, cpuSamples));
        arrays.put("cpu_sample_cpu", oldestFirst(cpuSampleCpu, cpuSamples));
        if (pauses != null)
        {
            arrays.putAll(pauses.arrays());
        }
        return arrays;
    }

    /** The kept entries of a ring of {@link #CAPACITY} that {@code written} entries went into, oldest first. */
    private static long[] oldestFirst(final long[] ring, final long written)
    {
        final int kept = (int)Math.min(written, CAPACITY);
        final long[] copy = new long[kept];
        for (int i = 0; i < kept; i++)
        {
            copy[i] = ring[(int)((written - kept + i) & (CAPACITY - 1))];
        }
        return copy;
    }

    /**
     * The thread's time off its CPU from {@code fromNanos} to {@code toNanos}, in pieces of any length (the window less
     * the CPU time the thread had in it, between the readings around each end, and in proportion where a reading is
     * not exactly at an end), or -1 where no reading precedes the window or none follows it.
     */
    static long offCpuWithin(final long[] at, final long[] cpu, final long fromNanos, final long toNanos)
    {
        if (at == null || cpu == null || at.length != cpu.length || at.length == 0 || at[0] > fromNanos
            || at[at.length - 1] < toNanos)
        {
            return -1;
        }
        final double off = offCpuUntil(at, cpu, toNanos) - offCpuUntil(at, cpu, fromNanos);
        return Math.max(0, Math.min(toNanos - fromNanos, Math.round(off)));
    }

    /** The time off the CPU from the first reading to {@code t}, within the readings' span, interpolated between two. */
    private static double offCpuUntil(final long[] at, final long[] cpu, final long t)
    {
        int i = 0;
        while (i + 1 < at.length && at[i + 1] <= t)
        {
            i++;
        }
        final double offAtI = (at[i] - at[0]) - (cpu[i] - cpu[0]);
        if (i + 1 == at.length || at[i] == t)
        {
            return offAtI;
        }
        final double offAtNext = (at[i + 1] - at[0]) - (cpu[i + 1] - cpu[0]);
        return offAtI + (offAtNext - offAtI) * (t - at[i]) / (at[i + 1] - at[i]);
    }

    /** A thread's gaps inside a window, as {@link #within(Map, long, long, JvmPauses.Intervals)}, its JVM's pauses alone. */
    public static Summary within(final Map<String, long[]> arrays, final long fromNanos, final long toNanos)
    {
        return within(arrays, fromNanos, toNanos, JvmPauses.union(arrays));
    }

    /**
     * The gaps' time inside the window from {@code fromNanos} to {@code toNanos} (a gap across either end counted for
     * its part inside, and its time off the CPU in proportion), or null where the window starts before the oldest kept
     * gap and older ones were dropped: an unknown, not a smaller figure. Of the gaps' time off the CPU, the part that
     * {@code pauses} (the JVMs' safepoints on this host, or null where not known) explain: in each gap, its time off the
     * CPU up to the pauses' time in it.
     */
    public static Summary within(final Map<String, long[]> arrays, final long fromNanos, final long toNanos,
        final JvmPauses.Intervals pauses)
    {
        final long[] gapStarts = arrays.get("stall_starts");
        final long[] gapLengths = arrays.get("stall_lengths");
        final long[] gapOffCpu = arrays.get("stall_off_cpu");
        final long[] recordedCount = arrays.get("stalls_recorded");
        if (gapStarts == null || gapLengths == null || gapOffCpu == null || recordedCount == null
            || gapStarts.length != gapLengths.length || gapStarts.length != gapOffCpu.length)
        {
            return null;
        }
        final boolean dropped = recordedCount[0] > gapStarts.length;
        if (dropped && (gapStarts.length == 0 || gapStarts[0] > fromNanos))
        {
            return null;
        }
        long total = 0;
        long longest = 0;
        long off = 0;
        long pausedOff = 0;
        for (int i = 0; i < gapStarts.length; i++)
        {
            final long from = Math.max(gapStarts[i], fromNanos);
            final long to = Math.min(gapStarts[i] + gapLengths[i], toNanos);
            final long inside = to - from;
            if (inside > 0)
            {
                total += inside;
                longest = Math.max(longest, inside);
                final long gapOff = inside == gapLengths[i] ? gapOffCpu[i] : Math.round((double)gapOffCpu[i] * inside / gapLengths[i]);
                off += gapOff;
                pausedOff += pauses == null ? 0 : Math.min(gapOff, pauses.overlap(from, to));
            }
        }
        return new Summary(total, longest, off, offCpuWithin(arrays.get("cpu_sample_at"), arrays.get("cpu_sample_cpu"),
            fromNanos, toNanos), JvmPauses.within(arrays, fromNanos, toNanos), pauses == null ? -1 : pausedOff);
    }

    /**
     * This thread's gaps inside a window, as {@link #within(Map, long, long)}: this JVM's pauses alone. The runner
     * itself counts both JVMs' pauses ({@code ClientDriver.stallsEntry}); this is for the tests.
     */
    Summary within(final long fromNanos, final long toNanos)
    {
        return within(arrays(), fromNanos, toNanos);
    }

    /**
     * How long a thread stood still in a window, in all and at the longest, and how much of that it was off its CPU:
     * the machine's part, where the rest was the thread running its own code; how long it was off its CPU in the
     * whole window, in pieces of any length; how long its JVM's safepoints took in the window; and how much of its gaps'
     * time off the CPU the safepoints of the JVMs on its host explain: the product's runtime's, not the machine's. The
     * last three are -1 where not known.
     */
    public record Summary(long totalNanos, long longestNanos, long offCpuNanos, long windowOffCpuNanos, long pausedNanos,
        long pauseOffCpuNanos)
    {
    }

    /**
     * The manifest's {@code hardware.hosts[].stalls}: the measured window, and the client's and the server's
     * summaries within it (each side's total, longest and off-CPU part, its JVM's pauses and the part of its time off
     * the CPU they explain), each left out where its thread did not spin or its gaps are unknown; null when neither is
     * known.
     */
    public static Map<String, Object> manifestEntry(final long windowNanos, final Summary client, final Summary server)
    {
        if (client == null && server == null)
        {
            return null;
        }
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("window_ns", Math.max(1, windowNanos));
        entry.put("over_ns", OVER_NS);
        if (client != null)
        {
            entry.put("client_ns", client.totalNanos());
            entry.put("client_longest_ns", client.longestNanos());
            entry.put("client_off_cpu_ns", client.offCpuNanos());
            putKnown(entry, "client_window_off_cpu_ns", client.windowOffCpuNanos());
            putKnown(entry, "client_paused_ns", client.pausedNanos());
            putKnown(entry, "client_pause_off_cpu_ns", client.pauseOffCpuNanos());
        }
        if (server != null)
        {
            entry.put("server_ns", server.totalNanos());
            entry.put("server_longest_ns", server.longestNanos());
            entry.put("server_off_cpu_ns", server.offCpuNanos());
            putKnown(entry, "server_window_off_cpu_ns", server.windowOffCpuNanos());
            putKnown(entry, "server_paused_ns", server.pausedNanos());
            putKnown(entry, "server_pause_off_cpu_ns", server.pauseOffCpuNanos());
        }
        return entry;
    }

    private static void putKnown(final Map<String, Object> entry, final String key, final long nanos)
    {
        if (nanos >= 0)
        {
            entry.put(key, nanos);
        }
    }
}
