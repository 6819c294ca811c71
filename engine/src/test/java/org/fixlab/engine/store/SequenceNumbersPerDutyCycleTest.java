package org.fixlab.engine.store;

import static org.fixlab.engine.store.MessageStoreContractTest.replayed;
import static org.fixlab.engine.store.MessageStoreContractTest.seqNums;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The file and mapped stores write each record as it is stored, and the sequence numbers a duty cycle changed
 * once (writePending, which the transport calls before any socket write, and flush on every duty cycle) under the
 * none and interval policies. Nothing a crash of the process can cost is lost: a stored message is in the file
 * when storeSent returns, and recovery moves the sender number past it. Under every-message nothing is deferred.
 * A crash is a copy of the session's files taken while the store is open: what a new process would find.
 */
class SequenceNumbersPerDutyCycleTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void recordsAreWrittenAtOnceAndTheSequenceNumbersOncePerDutyCycleAndACrashLosesNeither(final StoreKind kind)
        throws IOException
    {
        try (MessageStore store = kind.open(dir))
        {
            store.writePending();
            final byte[] slotsBefore = slots(kind, dir);
            for (int seqNum = 1; seqNum <= 3; seqNum++)
            {
                store.storeSent(seqNum, TestMessages.buffer(seqNum), 0, TestMessages.bytes(seqNum).length);
                store.nextSenderSeqNum(seqNum + 1);
                store.nextTargetSeqNum(seqNum + 10);
                try (MessageStore recovered = kind.open(copySessionFiles(kind, "crash-after-record-" + seqNum)))
                {
                    assertEquals(seqNums(1, seqNum), replayed(recovered, 1, Integer.MAX_VALUE), "record " + seqNum + " written at once");
                }
            }
            assertArrayEquals(slotsBefore, slots(kind, dir), "the numbers wait for the duty cycle");

            try (MessageStore recovered = kind.open(copySessionFiles(kind, "crash-before-the-cycle-ended")))
            {
                assertEquals(4, recovered.nextSenderSeqNum(), "moved past the stored records");
                assertEquals(1, recovered.nextTargetSeqNum(), "the peer resends what this side had processed");
            }
            store.flush(0);
            assertEquals(false, Arrays.equals(slotsBefore, slots(kind, dir)), "the duty cycle's end wrote the numbers");
            try (MessageStore recovered = kind.open(copySessionFiles(kind, "crash-after-the-cycle")))
            {
                assertEquals(4, recovered.nextSenderSeqNum());
                assertEquals(13, recovered.nextTargetSeqNum());
            }

            store.nextTargetSeqNum(14);
            store.writePending(); // the transport, before it writes to the socket
            try (MessageStore recovered = kind.open(copySessionFiles(kind, "crash-after-a-socket-write")))
            {
                assertEquals(14, recovered.nextTargetSeqNum());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void everyMessageWritesAndForcesTheSequenceNumbersBeforeTheSetterReturns(final StoreKind kind) throws IOException
    {
        final StoreType type = kind == StoreKind.FILE ? StoreType.FILE : StoreType.MAPPED;
        try (PersistentStore store = (PersistentStore)MessageStores.open(type, dir, StoreKind.SESSION_KEY,
            kind.options().syncPolicy(SyncPolicy.EVERY_MESSAGE)))
        {
            final long forces = store.forceCount();
            store.nextTargetSeqNum(7);
            assertEquals(forces + 1, store.forceCount());
            try (MessageStore recovered = kind.open(copySessionFiles(kind, "crash")))
            {
                assertEquals(7, recovered.nextTargetSeqNum());
            }
        }
    }

    /** The two sequence number slots as the files hold them now. */
    private static byte[] slots(final StoreKind kind, final Path in) throws IOException
    {
        return Arrays.copyOf(Files.readAllBytes(kind.seqNumsFile(in)), SequenceNumberSlots.LENGTH);
    }

    private Path copySessionFiles(final StoreKind kind, final String folder) throws IOException
    {
        final Path to = Files.createDirectories(dir.resolve(folder));
        Files.copy(kind.recordsFile(dir), kind.recordsFile(to));
        if (!Files.exists(kind.seqNumsFile(to)))
        {
            Files.copy(kind.seqNumsFile(dir), kind.seqNumsFile(to)); // the file store's second file
        }
        return to;
    }

}
