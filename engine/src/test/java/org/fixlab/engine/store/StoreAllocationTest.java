package org.fixlab.engine.store;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * storeSent and the sequence number setters allocate nothing in steady state: measured with the
 * JVM's per-thread allocation counter over 100,000 messages, after a warm-up that lets the JIT
 * compile the path and the stores reach their working size.
 */
class StoreAllocationTest
{
    private static final int WARM_UP_ROUNDS = 5;
    private static final int WARM_UP_ROUND = 10_000;
    private static final int MEASURED = 100_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void storesWithoutAllocating(final StoreType type)
    {
        final StoreOptions options = new StoreOptions()
            .memoryCapacityBytes(1 << 20) // small, so the measured stores evict all the time
            .indexCapacity(1 << 18);      // the session's size: 150,000 numbers fit without doubling
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[200]);

        try (MessageStore store = MessageStores.open(type, dir, StoreKind.SESSION_KEY, options))
        {
            // The same loop as measured, so that it is compiled, not just the store, before measuring.
            int seqNum = 1;
            for (int round = 0; round < WARM_UP_ROUNDS; round++)
            {
                seqNum = storeMessages(store, seqNum, WARM_UP_ROUND, message);
            }
            threads.getThreadAllocatedBytes(threadId);
            final long before = threads.getThreadAllocatedBytes(threadId);
            storeMessages(store, seqNum, MEASURED, message);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

            assertEquals(0, allocated, type + " allocated " + allocated + " bytes over " + MEASURED + " messages");
        }
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
