package org.fixlab.engine.store;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
     * A session that outgrows the index allocated up front costs the index's new chunks and nothing else: 8 bytes a
     * message (65,536 positions of 8 bytes a chunk), where doubling a table cost 12 bytes an entry per doubling plus
     * the dropped tables.
     */
    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    void outgrowingTheIndexCostsItsNewChunksOnly(final StoreType type)
    {
        final StoreOptions options = new StoreOptions().indexCapacity(1 << 16);

        try (MessageStore store = MessageStores.open(type, dir, StoreKind.SESSION_KEY, options))
        {
            int seqNum = warmUp(store);
            final int chunk = 1 << 16;
            final int from = (seqNum / chunk + 1) * chunk; // a window of whole chunks the index has not seen
            seqNum = storeMessages(store, seqNum, from - seqNum, message);
            final long before = threads.getThreadAllocatedBytes(threadId);
            storeMessages(store, from, 4 * chunk, message);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

            final long chunks = 4L * (8L * chunk + 16); // long[65,536] and its array header
            assertTrue(allocated >= chunks && allocated <= chunks + 4_096,
                type + ": " + allocated + " bytes for 4 new chunks of the index (" + chunks + " expected)");
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
