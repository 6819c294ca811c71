package org.fixlab.engine.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.store.MessageStoreContractTest.replayed;
import static org.fixlab.engine.store.MessageStoreContractTest.storeRange;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
    void aMessageAsLargeAsTheRingKeepsItsBytes()
    {
        try (MemoryStore store = new MemoryStore(1024))
        {
            storeRange(store, 1, 3);
            final byte[] large = TestMessages.pattern(store.maxMessageLength(), 7);
            store.storeSent(4, new UnsafeBuffer(large), 0, large.length);

            final List<byte[]> got = new ArrayList<>();
            assertEquals(1, store.replay(1, 4, (seqNum, buffer, offset, length) -> got.add(TestMessages.copyOf(buffer, offset, length))));
            assertArrayEquals(large, got.get(0));
        }
    }

    /**
     * Messages of every length, lap after lap: a replay gives exactly the newest messages the ring still holds whole,
     * byte for byte, those whose payload runs on at the ring's start included.
     */
    @Test
    void replayGivesTheNewestWholeMessagesByteForByteAcrossManyLaps()
    {
        final int capacity = 4096;
        final Random random = new Random(42);
        try (MemoryStore store = new MemoryStore(capacity))
        {
            final Deque<byte[]> stored = new ArrayDeque<>();
            int wrapped = 0;
            long tail = 0;
            for (int seqNum = 1; seqNum <= 3_000; seqNum++)
            {
                final byte[] message = TestMessages.pattern(1 + random.nextInt(600), seqNum);
                final long start = tail + 8;
                tail += (8 + message.length + 7) & ~7;
                if ((start & (capacity - 1)) + message.length > capacity && (start & (capacity - 1)) != 0)
                {
                    wrapped++;
                }
                store.storeSent(seqNum, new UnsafeBuffer(message), 0, message.length);
                stored.addLast(message);
                if (seqNum % 97 == 0)
                {
                    assertReplaysTheNewestThatFit(store, seqNum, stored, capacity);
                }
            }
            assertTrue(wrapped > 50, "payloads that ran on at the ring's start: " + wrapped);
        }
    }

    private static void assertReplaysTheNewestThatFit(final MemoryStore store, final int newest, final Deque<byte[]> stored,
        final int capacity)
    {
        // what must still be whole: the newest records whose aligned lengths add up to at most the ring
        final List<byte[]> expected = new ArrayList<>();
        long used = 0;
        for (final var it = stored.descendingIterator(); it.hasNext(); )
        {
            final byte[] message = it.next();
            used += (8 + message.length + 7) & ~7;
            if (used > capacity)
            {
                break;
            }
            expected.add(0, message);
        }
        final List<Integer> seqNums = new ArrayList<>();
        final List<byte[]> got = new ArrayList<>();
        store.replay(1, newest, (seqNum, buffer, offset, length) ->
        {
            seqNums.add(seqNum);
            got.add(TestMessages.copyOf(buffer, offset, length));
        });
        assertEquals(expected.size(), got.size(), "messages kept at " + newest);
        assertEquals(newest - expected.size() + 1, (int)seqNums.get(0));
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), got.get(i), "message " + seqNums.get(i));
        }
    }

    @Test
    void refusesACapacityThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new MemoryStore(3000));
    }
}
