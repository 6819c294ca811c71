package org.fixlab.bench.artio;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import uk.co.real_logic.artio.CommonConfiguration;

/**
 * The ways Artio is run. optimized: as Artio's system benchmarks configure it (no message
 * logging to the archive, no codec validation, which is off unless enabled) with busy-spinning
 * framer and benchmark threads; default: Artio's defaults, every inbound and outbound message
 * recorded by the Aeron archive (its durable log, used for resends), backoff idling; yielding:
 * optimized's settings with threads that yield their core when idle, the way to run Artio's three
 * threads per process on a machine with fewer cores than busy-spinning needs (backoff parks for up
 * to a millisecond, which is what default's round trips measure on such a machine).
 */
record ArtioSettings(String name, boolean logMessages, Idle idle)
{
    enum Idle
    {
        BUSY_SPIN, YIELD, BACKOFF
    }

    static ArtioSettings of(final String name)
    {
        return switch (name)
        {
            case "optimized" -> new ArtioSettings(name, false, Idle.BUSY_SPIN);
            case "default" -> new ArtioSettings(name, true, Idle.BACKOFF);
            case "yielding" -> new ArtioSettings(name, false, Idle.YIELD);
            default -> throw new IllegalArgumentException("no Artio configuration " + name);
        };
    }

    IdleStrategy framerIdle()
    {
        return threadIdle();
    }

    /** The benchmark thread, which polls the library. */
    IdleStrategy libraryIdle()
    {
        return threadIdle();
    }

    /** The manifest's name for how the framer and benchmark threads idle. */
    String idleName()
    {
        return switch (idle)
        {
            case BUSY_SPIN -> "busy-spin";
            case YIELD -> "yield";
            case BACKOFF -> "backoff";
        };
    }

    private IdleStrategy threadIdle()
    {
        return switch (idle)
        {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> CommonConfiguration.backoffIdleStrategy();
        };
    }

    /** Aeron's own default for a shared driver thread in both: the driver is not what is measured. */
    IdleStrategy driverIdle()
    {
        return new BackoffIdleStrategy(1, 10, 1_000, 1_000_000);
    }
}
