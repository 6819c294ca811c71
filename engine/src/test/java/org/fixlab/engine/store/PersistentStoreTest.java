package org.fixlab.engine.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.fixlab.engine.store.MessageStoreContractTest.replayed;
import static org.fixlab.engine.store.MessageStoreContractTest.seqNums;
import static org.fixlab.engine.store.MessageStoreContractTest.storeRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Persistence of {@link FileStore} and {@link MappedStore}: what a reopen finds after an orderly
 * close, and after the damage a crash leaves in the files, made here by hand.
 */
class PersistentStoreTest
{
    private static final int STORED = 40;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void reopensWithMessagesAndSequenceNumbers(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, STORED);
            store.nextSenderSeqNum(STORED + 1);
            store.nextTargetSeqNum(23);
        }

        try (MessageStore store = kind.open(dir))
        {
            assertEquals(STORED + 1, store.nextSenderSeqNum());
            assertEquals(23, store.nextTargetSeqNum());
            assertEquals(seqNums(1, STORED), replayed(store, 1, Integer.MAX_VALUE));
            storeRange(store, STORED + 1, STORED + 5);
            assertEquals(seqNums(1, STORED + 5), replayed(store, 1, Integer.MAX_VALUE));
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void movesTheSenderSequenceNumberPastAMessageStoredJustBeforeACrash(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, STORED - 1);
            store.nextSenderSeqNum(STORED);
            storeRange(store, STORED, STORED);
        }

        try (MessageStore store = kind.open(dir))
        {
            assertEquals(STORED + 1, store.nextSenderSeqNum());
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void cutsOffARecordTornInTheMiddle(final StoreKind kind) throws IOException
    {
        storeAndClose(kind);
        final long lastStart = recordStart(kind, STORED);
        final long lastEnd = recordStart(kind, STORED + 1);
        final long tear = lastStart + (lastEnd - lastStart) / 2;
        if (kind == StoreKind.FILE)
        {
            truncate(kind.recordsFile(dir), tear);
        }
        else
        {
            // A mapped file keeps its length: a crash leaves zeros where the record was not written yet.
            write(kind.recordsFile(dir), tear, new byte[(int)(lastEnd - tear)]);
        }

        assertReopensWithAllButTheLastRecord(kind);
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void cutsOffARecordWithAFlippedPayloadByte(final StoreKind kind) throws IOException
    {
        storeAndClose(kind);
        final long payloadByte = recordStart(kind, STORED) + RecordDescriptor.HEADER_LENGTH + 20;
        final byte[] original = read(kind.recordsFile(dir), payloadByte, 1);
        write(kind.recordsFile(dir), payloadByte, new byte[] {(byte)(original[0] ^ 0x10)});

        assertReopensWithAllButTheLastRecord(kind);
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void cutsOffAHeaderWrittenWithoutItsChecksum(final StoreKind kind) throws IOException
    {
        storeAndClose(kind);
        write(kind.recordsFile(dir), recordStart(kind, STORED) + RecordDescriptor.CHECKSUM_OFFSET, new byte[4]);

        assertReopensWithAllButTheLastRecord(kind);
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void ignoresZerosAndGarbageAfterTheLastRecord(final StoreKind kind) throws IOException
    {
        storeAndClose(kind);
        final long end = recordStart(kind, STORED + 1);
        write(kind.recordsFile(dir), end, new byte[4096]);
        final byte[] garbage = TestMessages.bytes(999);
        write(kind.recordsFile(dir), end + 4096, garbage);

        try (MessageStore store = kind.open(dir))
        {
            assertEquals(seqNums(1, STORED), replayed(store, 1, Integer.MAX_VALUE));
            storeRange(store, STORED + 1, STORED + 2);
        }
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(seqNums(1, STORED + 2), replayed(store, 1, Integer.MAX_VALUE));
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void fallsBackToThePreviousSequenceNumbersWhenTheNewestSlotIsTorn(final StoreKind kind) throws IOException
    {
        try (MessageStore store = kind.open(dir))
        {
            store.nextSenderSeqNum(10);
            store.nextTargetSeqNum(20);
            store.flush(0); // a duty cycle ends: the file store writes its numbers once per cycle
            store.nextSenderSeqNum(11);
        }
        final Path file = kind.seqNumsFile(dir);
        final long newest = generation(file, 0) > generation(file, SequenceNumberSlots.SLOT_LENGTH) ? 0 : SequenceNumberSlots.SLOT_LENGTH;
        write(file, newest + 8, new byte[] {(byte)0xFF, 0x7F});

        try (MessageStore store = kind.open(dir))
        {
            assertEquals(10, store.nextSenderSeqNum());
            assertEquals(20, store.nextTargetSeqNum());
            store.nextSenderSeqNum(12);
        }
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(12, store.nextSenderSeqNum(), "a write after the fallback takes over");
            assertEquals(20, store.nextTargetSeqNum());
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void startsFromOneWhenTheVeryFirstSequenceNumberWriteIsTorn(final StoreKind kind) throws IOException
    {
        try (MessageStore store = kind.open(dir))
        {
            store.nextTargetSeqNum(5);
        }
        write(kind.seqNumsFile(dir), SequenceNumberSlots.SLOT_LENGTH + 12, new byte[] {1, 2, 3});

        try (MessageStore store = kind.open(dir))
        {
            assertEquals(1, store.nextSenderSeqNum());
            assertEquals(1, store.nextTargetSeqNum());
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void refusesToGuessWhenBothSequenceNumberSlotsAreDamaged(final StoreKind kind) throws IOException
    {
        try (MessageStore store = kind.open(dir))
        {
            store.nextSenderSeqNum(10);
            store.nextSenderSeqNum(11);
        }
        write(kind.seqNumsFile(dir), 8, new byte[] {1});
        write(kind.seqNumsFile(dir), SequenceNumberSlots.SLOT_LENGTH + 8, new byte[] {1});

        final IllegalStateException failure = assertThrows(IllegalStateException.class, () -> kind.open(dir));
        assertTrue(failure.getMessage().contains(kind.seqNumsFile(dir).toString()), failure.getMessage());
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void resetEmptiesTheFilesForTheNextOpen(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, STORED);
            store.nextSenderSeqNum(STORED + 1);
            store.reset();
            storeRange(store, 1, 2);
            store.nextSenderSeqNum(3);
        }
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(3, store.nextSenderSeqNum());
            assertEquals(List.of(1, 2), replayed(store, 1, Integer.MAX_VALUE));
        }
    }

    /**
     * Idle duty cycles ready the index's next chunk, so a session's storeSent never allocates and fills one (0.3-0.5
     * ms every 65,536 messages); a stream with no idle cycle still gets its chunks from storeSent.
     */
    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void idleDutyCyclesReadyTheIndexAheadOfTheNumbers(final StoreKind kind)
    {
        final int stored = 70_000; // past the first chunk of 65,536 numbers, the only one allocated up front
        try (PersistentStore store = (PersistentStore)kind.open(dir.resolve("idle")))
        {
            for (int seqNum = 1; seqNum <= stored; seqNum++)
            {
                storeRange(store, seqNum, seqNum);
                store.flush(System.nanoTime()); // the cycle that stored: no step
                store.flush(System.nanoTime());
            }
            assertEquals(0, store.index.chunksAllocatedInPut(), kind + ": storeSent found every chunk readied");
            assertEquals(seqNums(stored - 2, stored), replayed(store, stored - 2, stored));
        }
        try (PersistentStore store = (PersistentStore)kind.open(dir.resolve("stream")))
        {
            for (int seqNum = 1; seqNum <= stored; seqNum++)
            {
                storeRange(store, seqNum, seqNum);
                store.flush(System.nanoTime()); // every cycle stored
            }
            assertEquals(1, store.index.chunksAllocatedInPut(), kind + ": no idle cycle, so storeSent allocated it");
            assertEquals(seqNums(stored - 2, stored), replayed(store, stored - 2, stored));
        }
    }

    @ParameterizedTest
    @EnumSource(value = SyncPolicy.class)
    void persistsUnderEverySyncPolicy(final SyncPolicy policy)
    {
        for (final StoreKind kind : new StoreKind[] {StoreKind.FILE, StoreKind.MAPPED})
        {
            final Path sessionDir = dir.resolve(kind.name());
            final StoreOptions options = kind.options().syncPolicy(policy).syncIntervalNanos(1);
            final StoreType type = kind == StoreKind.FILE ? StoreType.FILE : StoreType.MAPPED;
            try (MessageStore store = MessageStores.open(type, sessionDir, StoreKind.SESSION_KEY, options))
            {
                storeRange(store, 1, 5);
                store.nextSenderSeqNum(6);
                store.flush(System.nanoTime());
                storeRange(store, 6, 7);
            }
            try (MessageStore store = MessageStores.open(type, sessionDir, StoreKind.SESSION_KEY, options))
            {
                assertEquals(seqNums(1, 7), replayed(store, 1, Integer.MAX_VALUE), kind + " " + policy);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void staysUsableWhenItsThreadIsInterrupted(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, 2);
            Thread.currentThread().interrupt();
            try
            {
                storeRange(store, 3, 4);
                store.nextSenderSeqNum(5);
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the owner");
            }
            finally
            {
                Thread.interrupted();
            }
            storeRange(store, 5, 5);
            assertEquals(seqNums(1, 5), replayed(store, 1, Integer.MAX_VALUE));
        }
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(seqNums(1, 5), replayed(store, 1, Integer.MAX_VALUE));
        }
    }

    private void storeAndClose(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            storeRange(store, 1, STORED);
            store.nextSenderSeqNum(STORED + 1);
        }
    }

    private void assertReopensWithAllButTheLastRecord(final StoreKind kind)
    {
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(seqNums(1, STORED - 1), replayed(store, 1, Integer.MAX_VALUE));
            assertEquals(STORED + 1, store.nextSenderSeqNum());
            storeRange(store, STORED, STORED + 1);
        }
        try (MessageStore store = kind.open(dir))
        {
            assertEquals(seqNums(1, STORED + 1), replayed(store, 1, Integer.MAX_VALUE), "appends after the cut");
        }
    }

    /** Where the record of {@code seqNum} starts when 1 to seqNum - 1 were stored in order. */
    private static long recordStart(final StoreKind kind, final int seqNum)
    {
        long position = kind.recordsOffset();
        for (int stored = 1; stored < seqNum; stored++)
        {
            position += RecordDescriptor.recordLength(TestMessages.bytes(stored).length);
        }
        return position;
    }

    private static long generation(final Path file, final long slot) throws IOException
    {
        return ByteBuffer.wrap(read(file, slot, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private static byte[] read(final Path file, final long position, final int length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(length);
            channel.read(bytes, position);
            return bytes.array();
        }
    }

    private static void write(final Path file, final long position, final byte[] bytes) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap(bytes), position);
        }
    }

    private static void truncate(final Path file, final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
    }
}
