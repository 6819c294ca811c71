package org.fixlab.engine.store;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.store.MessageStoreContractTest.replayed;
import static org.fixlab.engine.store.MessageStoreContractTest.storeRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is particular to the bounded {@link MemoryStore}: eviction of the oldest messages. */
class MemoryStoreTest
{
    @Test
    void evictsTheOldestMessagesWhenTheRingIsFull()
    {
        try (MemoryStore store = new MemoryStore(4096))
        {
            storeRange(store, 1, 200);

            final List<Integer> kept = replayed(store, 1, 200);
            assertFalse(kept.isEmpty());
            assertTrue(kept.size() < 200, "4 KiB cannot hold 200 messages");
            final int oldestKept = kept.get(0);
            assertEquals(200 - oldestKept + 1, kept.size(), "the newest messages are kept, without holes");
            assertEquals(List.of(), replayed(store, 1, oldestKept - 1));
        }
    }

    @Test
    void keepsAMessageAsLargeAsTheRing()
    {
        try (MemoryStore store = new MemoryStore(1024))
        {
            storeRange(store, 1, 5);
            final UnsafeBuffer large = new UnsafeBuffer(new byte[store.maxMessageLength()]);
            store.storeSent(6, large, 0, large.capacity());

            assertEquals(1, store.replay(1, 6, (seqNum, buffer, offset, length) -> assertEquals(6, seqNum)));
            assertThrows(IllegalArgumentException.class, () -> store.storeSent(7, new UnsafeBuffer(new byte[1024]), 0, 1024));
        }
    }

    @Test
    void refusesACapacityThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new MemoryStore(3000));
    }
}
