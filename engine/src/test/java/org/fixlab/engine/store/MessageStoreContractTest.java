package org.fixlab.engine.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What every {@link MessageStore} promises the session, checked on each implementation. */
class MessageStoreContractTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void startsEmptyAtSequenceNumberOne(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(1, store.nextSenderSeqNum());
            assertEquals(1, store.nextTargetSeqNum());
            assertEquals(0, store.replay(1, Integer.MAX_VALUE, (seqNum, buffer, offset, length) -> { }));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void replaysTheRequestedRangeInOrder(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, 10);

            assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), replayed(store, 1, 10));
            assertEquals(List.of(3, 4, 5), replayed(store, 3, 5));
            assertEquals(List.of(8, 9, 10), replayed(store, 8, Integer.MAX_VALUE));
            assertEquals(List.of(), replayed(store, 11, 20));
            assertEquals(List.of(), replayed(store, 5, 4));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void leavesNeverStoredNumbersOutOfTheReplay(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            for (final int seqNum : new int[] {1, 2, 4, 7})
            {
                store(store, seqNum);
            }

            assertEquals(List.of(1, 2, 4, 7), replayed(store, 1, 7));
            assertEquals(List.of(4), replayed(store, 3, 6));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void keepsTheLatestMessageOfASequenceNumberStoredTwice(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, 3);
            final UnsafeBuffer resent = new UnsafeBuffer(TestMessages.bytes(2, 7));
            store.storeSent(2, resent, 0, resent.capacity());

            final List<Integer> seen = new ArrayList<>();
            store.replay(1, 3, (seqNum, buffer, offset, length) ->
            {
                seen.add(seqNum);
                TestMessages.assertIs(seqNum, seqNum == 2 ? 7 : 0, buffer, offset, length);
            });
            assertEquals(List.of(1, 2, 3), seen);
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void keepsMessagesLargerThanItsBuffersAndChunks(final StoreKind kind)
    {
        final UnsafeBuffer large = new UnsafeBuffer(new byte[200_000]);
        for (int i = 0; i < large.capacity(); i++)
        {
            large.putByte(i, (byte)i);
        }
        try (MessageStore store = kind.open(dir))
        {
            store(store, 1);
            store.storeSent(2, large, 0, large.capacity());
            store(store, 3);

            assertEquals(List.of(1), replayed(store, 1, 1));
            assertEquals(List.of(3), replayed(store, 3, 3));
            store.replay(2, 2, (seqNum, buffer, offset, length) ->
            {
                assertEquals(large.capacity(), length);
                for (int i = 0; i < length; i++)
                {
                    assertEquals((byte)i, buffer.getByte(offset + i));
                }
            });
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void keepsTheSequenceNumbersItIsGiven(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            store.nextSenderSeqNum(42);
            store.nextTargetSeqNum(17);
            store.nextTargetSeqNum(18);

            assertEquals(42, store.nextSenderSeqNum());
            assertEquals(18, store.nextTargetSeqNum());
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void resetDiscardsMessagesAndStartsAgainFromOne(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, 500);
            store.nextSenderSeqNum(501);
            store.nextTargetSeqNum(300);

            store.reset();

            assertEquals(1, store.nextSenderSeqNum());
            assertEquals(1, store.nextTargetSeqNum());
            assertEquals(List.of(), replayed(store, 1, Integer.MAX_VALUE));
            storeRange(store, 1, 3);
            assertEquals(List.of(1, 2, 3), replayed(store, 1, Integer.MAX_VALUE));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void refusesSequenceNumbersBelowOne(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            final UnsafeBuffer message = TestMessages.buffer(1);
            assertThrows(IllegalArgumentException.class, () -> store.storeSent(0, message, 0, message.capacity()));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void closesOnceAndRefusesUseAfterwards(final StoreKind kind)
    {
        final MessageStore store = kind.open(dir);
        store(store, 1);
        store.close();
        store.close();

        final UnsafeBuffer message = TestMessages.buffer(2);
        assertThrows(IllegalStateException.class, () -> store.storeSent(2, message, 0, message.capacity()));
        assertThrows(IllegalStateException.class, () -> store.replay(1, 1, (seqNum, buffer, offset, length) -> { }));
        assertThrows(IllegalStateException.class, () -> store.nextSenderSeqNum(3));
        assertThrows(IllegalStateException.class, store::nextTargetSeqNum);
        assertThrows(IllegalStateException.class, store::reset);
        assertThrows(IllegalStateException.class, () -> store.flush(0));
    }

    static void store(final MessageStore store, final int seqNum)
    {
        final UnsafeBuffer message = TestMessages.buffer(seqNum);
        store.storeSent(seqNum, message, 0, message.capacity());
    }

    static void storeRange(final MessageStore store, final int from, final int to)
    {
        for (int seqNum = from; seqNum <= to; seqNum++)
        {
            store(store, seqNum);
        }
    }

    /** The sequence numbers from {@code from} to {@code to}, both included: what a replay of them should report. */
    static List<Integer> seqNums(final int from, final int to)
    {
        return IntStream.rangeClosed(from, to).boxed().collect(Collectors.toList());
    }

    /** The seqNums a replay reports, each checked to carry the message stored for it. */
    static List<Integer> replayed(final MessageStore store, final int from, final int to)
    {
        final List<Integer> seen = new ArrayList<>();
        final int count = store.replay(from, to, (seqNum, buffer, offset, length) ->
        {
            seen.add(seqNum);
            TestMessages.assertIs(seqNum, 0, buffer, offset, length);
        });
        assertEquals(seen.size(), count, "replay's return value");
        return seen;
    }
}
