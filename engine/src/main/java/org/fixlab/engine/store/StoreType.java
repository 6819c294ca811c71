package org.fixlab.engine.store;

import java.util.Locale;

/** Which {@link MessageStore} a session uses; the configuration names them in lower case. */
public enum StoreType
{
    /** {@link MemoryStore}: bounded, nothing survives the process. */
    MEMORY,
    /** {@link FileStore}: append-only files written with system calls. */
    FILE,
    /** {@link MappedStore}: one memory-mapped file. */
    MAPPED;

    /** Parses "memory", "file" or "mapped", in any case. */
    public static StoreType parse(final String value)
    {
        for (final StoreType type : values())
        {
            if (type.name().equals(null == value ? null : value.trim().toUpperCase(Locale.ROOT)))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown store type '" + value + "': use memory, file or mapped");
    }
}
