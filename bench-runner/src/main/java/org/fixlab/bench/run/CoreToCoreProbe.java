package org.fixlab.bench.run;

import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import net.openhft.affinity.Affinity;

/**
 * How far apart two of this host's CPUs are, as the time a cache line takes to go from one to the other and back: two
 * threads, each pinned to one CPU, hand a counter to each other, and the median of a few dozen batches of round trips
 * is the answer. The manifest records it before and after each run ({@code hardware.hosts[].core_to_core}).
 *
 * <p>Why: on a virtual machine the host decides which physical cores the virtual CPUs run on, and it changes its mind.
 * On the 2-vCPU VM the project measures on, the round trip between CPU 0 and CPU 1 reads 51-127 ns (mostly 55-90) at
 * some times and 300-370 ns at others (the two vCPUs on cores that share a cache, or not), and the state changes while
 * runs go on. A loopback round trip crosses between the two CPUs dozens of times, so the same build measured 9.3-9.9
 * us (closed-loop p50, fixlab optimized) with the CPUs near and 13.1-14.0 us with them far, and the raw socket 8.3-8.6
 * against 12.1-12.8; in 30 probe runs every slow one had a far reading before or after it. A run whose two readings
 * disagree measured two machines, which the pipeline's steady-state check refuses to average in.
 *
 * <p>It wants both CPUs to itself: the client takes the first reading before it connects (the server then waits in
 * accept, spinning on nothing) and the second once its engine is closed and the server has let go of the run. A
 * thread that shares a CPU with the probe costs it the batches that straddle a switch between them, which the median
 * of the batches leaves out; a median still above {@link #DISTURBED_NANOS} is the scheduler's, not a cache line's, and
 * is refused ({@link #NOT_MEASURED}) rather than recorded.
 */
public final class CoreToCoreProbe
{
    /** Returned when the threads could not be pinned, or the CPUs were not free to measure. */
    public static final long NOT_MEASURED = -1;
    /** A median above this is a CPU shared with a busy thread (a scheduler's time slice), not a cache line's trip. */
    static final long DISTURBED_NANOS = 20_000;
    private static final int ROUND_TRIPS_PER_BATCH = 2_000;
    private static final int WARMUP_BATCHES = 20;
    private static final int BATCHES = 31;
    private static final long TIMEOUT_NANOS = 2_000_000_000L;
    private static final long STOP = Long.MIN_VALUE;

    private final int cpuA;
    private final int cpuB;

    private CoreToCoreProbe(final int cpuA, final int cpuB)
    {
        this.cpuA = cpuA;
        this.cpuB = cpuB;
    }

    /**
     * The first and the last CPU this process may run on, or null with fewer than two, or where Affinity cannot
     * tell (no native access on this platform): a run is never refused for want of the probe.
     */
    public static CoreToCoreProbe forThisProcess()
    {
        final BitSet allowed;
        try
        {
            allowed = Affinity.getAffinity();
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null;
        }
        final int first = allowed.nextSetBit(0);
        final int last = allowed.length() - 1;
        return first < 0 || first == last ? null : new CoreToCoreProbe(first, last);
    }

    static CoreToCoreProbe between(final int cpuA, final int cpuB)
    {
        return new CoreToCoreProbe(cpuA, cpuB);
    }

    public int[] cpus()
    {
        return new int[] {cpuA, cpuB};
    }

    /** The median round trip of a cache line between the two CPUs in ns, or {@link #NOT_MEASURED}. */
    public long measure()
    {
        final AtomicLong turn = new AtomicLong();
        final long[] batchNanos = new long[BATCHES];
        final boolean[] pinned = new boolean[2];
        final boolean[] completed = new boolean[1];
        final Thread responder = new Thread(() -> respond(turn, pinned), "core-to-core-" + cpuB);
        final Thread initiator = new Thread(() -> completed[0] = initiate(turn, pinned, batchNanos), "core-to-core-" + cpuA);
        responder.setDaemon(true);
        initiator.setDaemon(true);
        responder.start();
        initiator.start();
        try
        {
            initiator.join();
            turn.set(STOP);
            responder.join(TIMEOUT_NANOS / 1_000_000);
        }
        catch (final InterruptedException ex)
        {
            turn.set(STOP);
            Thread.currentThread().interrupt();
            return NOT_MEASURED;
        }
        if (!completed[0] || !pinned[0] || !pinned[1])
        {
            return NOT_MEASURED;
        }
        Arrays.sort(batchNanos);
        final long median = batchNanos[BATCHES / 2] / ROUND_TRIPS_PER_BATCH;
        return median > DISTURBED_NANOS ? NOT_MEASURED : Math.max(1, median);
    }

    /** The manifest's {@code core_to_core} object: the CPUs, and the readings taken (null where none could be). */
    public Map<String, Object> manifestEntry(final long beforeNanos, final long afterNanos)
    {
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("cpus", java.util.List.of(cpuA, cpuB));
        entry.put("before_ns", beforeNanos == NOT_MEASURED ? null : beforeNanos);
        entry.put("after_ns", afterNanos == NOT_MEASURED ? null : afterNanos);
        return entry;
    }

    /** Odd values of {@code turn} are the initiator's hand-overs, the next even one the responder's answer. */
    private boolean initiate(final AtomicLong turn, final boolean[] pinned, final long[] batchNanos)
    {
        pinned[0] = pin(cpuA);
        final long deadline = System.nanoTime() + TIMEOUT_NANOS;
        long value = 0;
        for (int batch = -WARMUP_BATCHES; batch < BATCHES; batch++)
        {
            final long start = System.nanoTime();
            for (int i = 0; i < ROUND_TRIPS_PER_BATCH; i++)
            {
                turn.setRelease(++value);
                ++value;
                int spins = 0;
                while (turn.getAcquire() != value)
                {
                    if ((++spins & 0xFFFF) == 0 && System.nanoTime() > deadline)
                    {
                        return false;
                    }
                }
            }
            if (batch >= 0)
            {
                batchNanos[batch] = System.nanoTime() - start;
            }
        }
        return true;
    }

    private void respond(final AtomicLong turn, final boolean[] pinned)
    {
        pinned[1] = pin(cpuB);
        final long deadline = System.nanoTime() + 2 * TIMEOUT_NANOS;
        int spins = 0;
        while (true)
        {
            final long value = turn.getAcquire();
            if (value == STOP)
            {
                return;
            }
            if ((value & 1) == 1)
            {
                turn.setRelease(value + 1);
            }
            else if ((++spins & 0xFFFF) == 0 && System.nanoTime() > deadline)
            {
                return;
            }
        }
    }

    /** Pins the calling thread to {@code cpu}; whether it now runs there only (false where Affinity cannot). */
    static boolean pin(final int cpu)
    {
        final BitSet only = new BitSet();
        only.set(cpu);
        return runOnlyOn(only);
    }

    /** Lets the calling thread run on {@code cpus} only; whether that took (false where Affinity cannot). */
    static boolean runOnlyOn(final BitSet cpus)
    {
        try
        {
            Affinity.setAffinity(cpus);
            return cpus.equals(Affinity.getAffinity());
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return false;
        }
    }
}
