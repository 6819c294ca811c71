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
    /** Spin, then yield, then park with growing pauses (1 us .. 1 ms): degrades gracefully on shared cores. */
    BACKOFF("backoff"),
    /** Sleep 1 ms: for tests and idle tools, not for latency. */
    SLEEPING("sleeping");

    private final String key;

    IdleStrategyType(final String key)
    {
        this.key = key;
    }

    public String key()
    {
        return key;
    }

    public IdleStrategy create()
    {
        switch (this)
        {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELDING:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
            default:
                return new SleepingMillisIdleStrategy(1);
        }
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
