package org.fixlab.engine.store;

import java.util.concurrent.TimeUnit;

/**
 * Tuning of the message stores, with a default for every option; fluent setters, accessors
 * without "get". Only the options of the store type in use are read.
 */
public final class StoreOptions
{
    public static final SyncPolicy DEFAULT_SYNC_POLICY = SyncPolicy.NONE;
    public static final long DEFAULT_SYNC_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Memory store ring: 64 MiB, about 300,000 messages of 200 bytes. */
    public static final int DEFAULT_MEMORY_CAPACITY_BYTES = MemoryStore.DEFAULT_CAPACITY_BYTES;
    /** Mapped store growth step: 64 MiB. */
    public static final int DEFAULT_MAPPED_CHUNK_BYTES = 64 * 1024 * 1024;
    /** File and mapped stores: sequence numbers indexed before the index first doubles. */
    public static final int DEFAULT_INDEX_CAPACITY = 1 << 18;

    private SyncPolicy syncPolicy = DEFAULT_SYNC_POLICY;
    private long syncIntervalNanos = DEFAULT_SYNC_INTERVAL_NANOS;
    private int memoryCapacityBytes = DEFAULT_MEMORY_CAPACITY_BYTES;
    private int mappedChunkBytes = DEFAULT_MAPPED_CHUNK_BYTES;
    private int indexCapacity = DEFAULT_INDEX_CAPACITY;
    private boolean mapByAddress = true;
    private ForceListener forceListener = ForceListener.NONE;

    /** File and mapped stores: when writes are forced to the device. */
    public StoreOptions syncPolicy(final SyncPolicy syncPolicy)
    {
        this.syncPolicy = syncPolicy;
        return this;
    }

    public SyncPolicy syncPolicy()
    {
        return syncPolicy;
    }

    /** With {@link SyncPolicy#INTERVAL}: the least time between two forces. */
    public StoreOptions syncIntervalNanos(final long syncIntervalNanos)
    {
        this.syncIntervalNanos = syncIntervalNanos;
        return this;
    }

    public long syncIntervalNanos()
    {
        return syncIntervalNanos;
    }

    /** Memory store: the ring, a power of two; the oldest messages are evicted beyond it. */
    public StoreOptions memoryCapacityBytes(final int memoryCapacityBytes)
    {
        this.memoryCapacityBytes = memoryCapacityBytes;
        return this;
    }

    public int memoryCapacityBytes()
    {
        return memoryCapacityBytes;
    }

    /** Mapped store: the file grows, and is remapped, in steps of this size. */
    public StoreOptions mappedChunkBytes(final int mappedChunkBytes)
    {
        this.mappedChunkBytes = mappedChunkBytes;
        return this;
    }

    public int mappedChunkBytes()
    {
        return mappedChunkBytes;
    }

    /**
     * Mapped store: map its windows with the JDK's own mmap, which allocates nothing, where the JVM lets it
     * ({@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED}, on Linux); true by default. Without it, or with false,
     * each window is a {@code FileChannel.map}, which allocates about 270 bytes (one window per chunk).
     */
    public StoreOptions mapByAddress(final boolean mapByAddress)
    {
        this.mapByAddress = mapByAddress;
        return this;
    }

    public boolean mapByAddress()
    {
        return mapByAddress;
    }

    /**
     * File and mapped stores: a power of two; the index doubles whenever the stored sequence numbers
     * outgrow it. Set it above the messages a session stores between resets to never allocate.
     */
    public StoreOptions indexCapacity(final int indexCapacity)
    {
        this.indexCapacity = indexCapacity;
        return this;
    }

    public int indexCapacity()
    {
        return indexCapacity;
    }

    /** File and mapped stores: told after every force (tests, monitoring); {@link ForceListener#NONE} by default. */
    public StoreOptions forceListener(final ForceListener forceListener)
    {
        this.forceListener = forceListener;
        return this;
    }

    public ForceListener forceListener()
    {
        return forceListener;
    }

    @Override
    public String toString()
    {
        return "StoreOptions{syncPolicy=" + syncPolicy + ", syncIntervalNanos=" + syncIntervalNanos +
            ", memoryCapacityBytes=" + memoryCapacityBytes + ", mappedChunkBytes=" + mappedChunkBytes +
            ", mapByAddress=" + mapByAddress + ", indexCapacity=" + indexCapacity + '}';
    }
}
