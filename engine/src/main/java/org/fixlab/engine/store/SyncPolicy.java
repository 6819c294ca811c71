package org.fixlab.engine.store;

/** When a persistent store forces its writes to the storage device; the configuration names them by {@link #key()}. */
public enum SyncPolicy
{
    /** Leave it to the OS page cache: survives a process crash, not a power loss. Fastest. */
    NONE("none"),
    /** fsync / force after every stored message and sequence number change: survives power loss. */
    EVERY_MESSAGE("every-message"),
    /** force at most once per configured interval, from {@link MessageStore#flush(long)} calls on the duty cycle. */
    INTERVAL("interval");

    private final String key;

    SyncPolicy(final String key)
    {
        this.key = key;
    }

    /** The name in {@code engine.properties}. */
    public String key()
    {
        return key;
    }

    /** Parses "none", "every-message" or "interval", in any case. */
    public static SyncPolicy of(final String key)
    {
        for (final SyncPolicy policy : values())
        {
            if (policy.key.equalsIgnoreCase(key))
            {
                return policy;
            }
        }
        throw new IllegalArgumentException("'" + key + "' is not a sync policy (expected none, every-message or interval)");
    }
}
