package org.fixlab.engine.store;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * storeSent and the sequence number setters allocate nothing in steady state: measured with the
 * JVM's per-thread allocation counter over 100,000 messages, after a warm-up that lets the JIT
 * compile the path and the stores reach their working size.
 */
class StoreAllocationTest
{
    private static final int WARM_UP_ROUNDS = 5;
    private static final int WARM_UP_ROUND = 10_000;
    private static final int MAX_WINDOWS = 5;
    private static final int MEASURED = 100_000;
    /** FileChannel.map's objects for one mapping: 272 bytes on Java 17, 656 on Java 25. Not an allocation per message. */
    private static final int MAX_BYTES_PER_MAPPING = 1024;

    @TempDir
    Path dir;

    private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final long threadId = Thread.currentThread().getId();
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[200]);

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void storesWithoutAllocating(final StoreType type)
    {
        final StoreOptions options = new StoreOptions()
            .memoryCapacityBytes(1 << 20) // small, so the measured stores evict all the time
            .indexCapacity(1 << 20);      // every window below fits in the index chunks allocated up front

        try (MessageStore store = MessageStores.open(type, dir, StoreKind.SESSION_KEY, options))
        {
            int seqNum = warmUp(store);
            threads.getThreadAllocatedBytes(threadId);
            // A late JIT recompilation can allocate a few bytes once; an allocation per message
            // would show in every window, never as 0.
            final StringBuilder windows = new StringBuilder();
            long allocated = -1;
            for (int window = 0; window < MAX_WINDOWS && allocated != 0; window++)
            {
                final long before = threads.getThreadAllocatedBytes(threadId);
                seqNum = storeMessages(store, seqNum, MEASURED, message);
                allocated = threads.getThreadAllocatedBytes(threadId) - before;
                windows.append(allocated).append(' ');
            }

            assertEquals(0, allocated, type + " allocated per window of " + MEASURED + " messages: " + windows);
        }
    }

    /**
     * A session that outgrows the index allocated up front allocates nothing on the heap either: the index's new
     * chunks are native memory (8 bytes a message once, freed with the store), where on-heap chunks cost the
     * balanced preset 6.8 bytes a message in a million-message throughput run.
     */
    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    void outgrowingTheIndexAllocatesNothingOnTheHeap(final StoreType type)
    {
        final StoreOptions options = new StoreOptions().indexCapacity(1 << 16);

        try (MessageStore store = MessageStores.open(type, dir, StoreKind.SESSION_KEY, options))
        {
            int seqNum = warmUp(store);
            final int chunk = 1 << 16;
            final int from = (seqNum / chunk + 1) * chunk; // a window of whole chunks the index has not seen
            seqNum = storeMessages(store, seqNum, from - seqNum, message);
            final StringBuilder windows = new StringBuilder();
            long allocated = -1;
            for (int window = 0; window < MAX_WINDOWS && allocated != 0; window++)
            {
                final long before = threads.getThreadAllocatedBytes(threadId);
                seqNum = storeMessages(store, seqNum, 2 * chunk, message);
                allocated = threads.getThreadAllocatedBytes(threadId) - before;
                windows.append(allocated).append(' ');
            }
            assertEquals(0, allocated, type + ": bytes allocated per window of 2 new chunks of the index: " + windows);
        }
    }

    /**
     * A mapped store that moves on window after window allocates nothing: it maps them with the JDK's own mmap
     * ({@link JdkMmap}, which this test JVM is opened for, as the benchmark's JVMs are). Small chunks here, so that
     * 100,000 messages move on a hundred times.
     */
    @Test
    void movingOnToNewWindowsAllocatesNothing()
    {
        assertNull(JdkMmap.UNAVAILABLE, "the test JVM should open java.base/sun.nio.ch (the pom's engine.jvm.flags)");
        final StoreOptions options = new StoreOptions().mappedChunkBytes(256 * 1024).indexCapacity(1 << 20);

        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, options))
        {
            int seqNum = warmUp(store);
            final StringBuilder windows = new StringBuilder();
            long allocated = -1;
            long mappings = 0;
            for (int window = 0; window < MAX_WINDOWS && allocated != 0; window++)
            {
                final long mappingsBefore = store.mappingsMade();
                final long before = threads.getThreadAllocatedBytes(threadId);
                seqNum = storeMessages(store, seqNum, MEASURED, message);
                allocated = threads.getThreadAllocatedBytes(threadId) - before;
                mappings = store.mappingsMade() - mappingsBefore;
                windows.append(allocated).append(" bytes/").append(mappings).append(" mappings ");
            }

            assertTrue(mappings >= 50, "the measured messages should fill many windows: " + windows);
            assertEquals(0, allocated, "allocated per " + MEASURED + " messages: " + windows);
        }
    }

    /**
     * Mapped through FileChannel.map (no --add-opens, or mapByAddress off), each window a mapped store moves on to
     * costs only the JDK's mapping objects (the MappedByteBuffer, its unmapper and cleaner), once per chunk (64 MiB by
     * default).
     */
    @Test
    void withoutMappingByAddressAWindowAllocatesOnlyItsMapping()
    {
        final StoreOptions options = new StoreOptions().mappedChunkBytes(256 * 1024).indexCapacity(1 << 20).mapByAddress(false);

        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, options))
        {
            int seqNum = warmUp(store);
            final long mappingsBefore = store.mappingsMade();
            final long before = threads.getThreadAllocatedBytes(threadId);
            seqNum = storeMessages(store, seqNum, MEASURED, message);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            final long mappings = store.mappingsMade() - mappingsBefore;

            assertTrue(mappings >= 50, "the measured messages should fill many windows: " + mappings);
            assertTrue(allocated > 0, "FileChannel.map allocates its objects: 0 bytes means the store mapped by address");
            assertTrue(allocated <= MAX_BYTES_PER_MAPPING * mappings,
                allocated + " bytes allocated for " + mappings + " mappings: " + allocated / mappings + " each");
        }
    }

    /** Runs the loop that is measured, so that it is compiled, not just the store, before measuring; returns the next seqNum. */
    private int warmUp(final MessageStore store)
    {
        int seqNum = 1;
        for (int round = 0; round < WARM_UP_ROUNDS; round++)
        {
            seqNum = storeMessages(store, seqNum, WARM_UP_ROUND, message);
        }
        return seqNum;
    }

    /** @return the next seqNum. */
    private static int storeMessages(final MessageStore store, final int fromSeqNum, final int count, final UnsafeBuffer message)
    {
        final int end = fromSeqNum + count;
        for (int seqNum = fromSeqNum; seqNum < end; seqNum++)
        {
            store.storeSent(seqNum, message, 0, message.capacity());
            store.nextSenderSeqNum(seqNum + 1);
        }
        return end;
    }
}
