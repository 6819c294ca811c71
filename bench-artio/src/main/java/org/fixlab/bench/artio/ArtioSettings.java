package org.fixlab.bench.artio;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import uk.co.real_logic.artio.CommonConfiguration;

/**
 * The two ways Artio is run. optimized: as Artio's system benchmarks configure it (no message
 * logging to the archive, no codec validation, which is off unless enabled) with busy-spinning
 * framer and benchmark threads; default: Artio's defaults, every inbound and outbound message
 * recorded by the Aeron archive (its durable log, used for resends), backoff idling.
 */
record ArtioSettings(String name, boolean logMessages, boolean busySpin)
{
    static ArtioSettings of(final String name)
    {
        return switch (name)
        {
            case "optimized" -> new ArtioSettings(name, false, true);
            case "default" -> new ArtioSettings(name, true, false);
            default -> throw new IllegalArgumentException("no Artio configuration " + name);
        };
    }

    IdleStrategy framerIdle()
    {
        return busySpin ? new BusySpinIdleStrategy() : CommonConfiguration.backoffIdleStrategy();
    }

    /** The benchmark thread, which polls the library. */
    IdleStrategy libraryIdle()
    {
        return busySpin ? new BusySpinIdleStrategy() : CommonConfiguration.backoffIdleStrategy();
    }

    /** Aeron's own default for a shared driver thread in both: the driver is not what is measured. */
    IdleStrategy driverIdle()
    {
        return new BackoffIdleStrategy(1, 10, 1_000, 1_000_000);
    }
}
