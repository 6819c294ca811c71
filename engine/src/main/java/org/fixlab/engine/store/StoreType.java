package org.fixlab.engine.store;

/** Which {@link MessageStore} a session uses; the configuration names them by {@link #key()}. */
public enum StoreType
{
    /** {@link MemoryStore}: bounded, nothing survives the process. */
    MEMORY("memory"),
    /** {@link FileStore}: append-only files written with system calls. */
    FILE("file"),
    /** {@link MappedStore}: one memory-mapped file. */
    MAPPED("mapped");

    private final String key;

    StoreType(final String key)
    {
        this.key = key;
    }

    /** The name in {@code engine.properties} and in run manifests. */
    public String key()
    {
        return key;
    }

    /** Parses "memory", "file" or "mapped", in any case. */
    public static StoreType of(final String key)
    {
        for (final StoreType type : values())
        {
            if (type.key.equalsIgnoreCase(key))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("'" + key + "' is not a store type (expected memory, file or mapped)");
    }
}
