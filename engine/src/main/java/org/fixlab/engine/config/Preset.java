package org.fixlab.engine.config;

/**
 * Named starting points for the configuration, as FIX engine benchmark reports describe them.
 * Individual keys in {@code engine.properties} override a preset's values.
 */
public enum Preset
{
    /**
     * A safe start: Nagle's algorithm on, persistent (memory-mapped file) store, CheckSum and garbled-message
     * validation on, no CPU pinning, a backoff idle strategy that leaves the CPU to others.
     */
    BALANCED,
    /**
     * Maximum speed in a controlled environment: Nagle off, in-memory store, validation off, the
     * engine thread pinned to a CPU and busy-spinning.
     */
    OPTIMIZED;

    public static Preset of(final String name)
    {
        for (final Preset preset : values())
        {
            if (preset.name().equalsIgnoreCase(name))
            {
                return preset;
            }
        }
        throw new IllegalArgumentException("preset: unknown value '" + name + "' (expected balanced or optimized)");
    }
}
