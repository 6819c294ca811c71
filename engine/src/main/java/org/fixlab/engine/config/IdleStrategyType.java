package org.fixlab.engine.config;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/** What the engine thread does in a duty cycle that found no work. Results name the one they used. */
public enum IdleStrategyType
{
    /** Spin on the CPU: lowest latency, one core fully used per engine thread. */
    BUSY_SPIN("busy-spin"),
    /** Thread.yield(): near busy-spin latency, gives way when the machine is oversubscribed. */
    YIELDING("yielding"),
    /**
     * Spin, then yield, then park with growing pauses (1 us .. 1 ms): degrades gracefully on shared cores. See
     * {@link #BACKOFF_SPINS} for why it yields as long as it does before its first park.
     */
    BACKOFF("backoff"),
    /** Sleep 1 ms: for tests and idle tools, not for latency. */
    SLEEPING("sleeping");

    /**
     * The backoff strategy's idle duty cycles of spinning, then of yielding, before its first park. A park of 1 us
     * wakes 50-60 us later (Linux's timer slack), so two engines in conversation whose spin-and-yield phase is shorter
     * than that lock into a slow mode once either parks: each answer arrives while the other side is parked, and
     * every round trip pays two wake-ups until chance breaks the chain. With 10 yields (some 70 us of duty cycles,
     * each an empty read, on the VM) balanced's closed-loop round trips ran at 130-140 us in bursts, p99 26-134 us;
     * with 100 (some 160 us) p99 9.5-13.6 us, the median unchanged; paced p99 median 493 -> 143 us (2 cores, 11
     * alternating runs each). A yield gives the CPU to any thread that wants it: at 1,000 messages a second the
     * server took 4.5% of a core more. 1,000 spins instead did as well on the closed loop and better paced (p99
     * median 64 us), for 27% of a core more: not balanced's trade.
     */
    static final int BACKOFF_SPINS = 100;
    static final int BACKOFF_YIELDS = 100;
    static final long BACKOFF_MIN_PARK_NANOS = 1_000;
    /** Backoff's idle calls up to its first park: to spinning, the spins, the yields, to parking, the park. */
    static final int BACKOFF_FIRST_PARK_CALL = BACKOFF_SPINS + BACKOFF_YIELDS + 3;

    private final String key;

    IdleStrategyType(final String key)
    {
        this.key = key;
    }

    public String key()
    {
        return key;
    }

    /**
     * A new strategy of this type, taken once through each of its states (spin, yield, park, sleep) and reset: a
     * state's first idle call in a JVM allocates (the JDK initializing what a first park or sleep needs, Agrona
     * loading a class), and without this the first one fell wherever the thread first idled long enough, in the
     * middle of a session: backoff parks only after 200 idle cycles of spinning and yielding, which a thread whose
     * messages always come sooner may not reach for a long time. In a JVM that had not idled before, the yields and
     * the first park of a backoff strategy allocated 528 bytes on the thread that idled, and its first spin 136 KB
     * (loading Agrona's {@code ThreadHints}): see {@code IdleStrategyTypeTest}.
     */
    public IdleStrategy create()
    {
        final IdleStrategy idle;
        final int firstPassCycles;
        switch (this)
        {
            case BUSY_SPIN:
                idle = new BusySpinIdleStrategy();
                firstPassCycles = 1;
                break;
            case YIELDING:
                idle = new YieldingIdleStrategy();
                firstPassCycles = 1;
                break;
            case BACKOFF:
                idle = new BackoffIdleStrategy(BACKOFF_SPINS, BACKOFF_YIELDS, BACKOFF_MIN_PARK_NANOS, 1_000_000);
                firstPassCycles = BACKOFF_FIRST_PARK_CALL;
                break;
            default:
                idle = new SleepingMillisIdleStrategy(1);
                firstPassCycles = 1;
                break;
        }
        for (int cycle = 0; cycle < firstPassCycles; cycle++)
        {
            idle.idle();
        }
        idle.reset();
        return idle;
    }

    public static IdleStrategyType of(final String key)
    {
        for (final IdleStrategyType type : values())
        {
            if (type.key.equalsIgnoreCase(key))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown idle strategy '" + key + "' (expected busy-spin, yielding, backoff or sleeping)");
    }
}
