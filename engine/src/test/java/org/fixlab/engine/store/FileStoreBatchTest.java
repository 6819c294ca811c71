package org.fixlab.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file store writes each record as it is stored, and the sequence numbers a duty cycle changed with
 * one system call (writePending, which the transport calls before any socket write, and flush on every
 * duty cycle) under the none and interval policies. Nothing a crash of the process can cost is lost:
 * a stored message is in the file when storeSent returns, and recovery moves the sender number past it.
 * Under every-message nothing is deferred.
 */
class FileStoreBatchTest
{
    @TempDir
    Path dir;

    @Test
    void recordsAreWrittenAtOnceAndTheSequenceNumbersOncePerDutyCycleAndACrashLosesNeither() throws IOException
    {
        final Path seqNums = StoreKind.FILE.seqNumsFile(dir);
        try (FileStore store = FileStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().syncPolicy(SyncPolicy.NONE)))
        {
            store.writePending();
            final byte[] before = Files.readAllBytes(seqNums);
            long expected = 0;
            for (int seqNum = 1; seqNum <= 3; seqNum++)
            {
                store.storeSent(seqNum, TestMessages.buffer(seqNum), 0, TestMessages.bytes(seqNum).length);
                store.nextSenderSeqNum(seqNum + 1);
                store.nextTargetSeqNum(seqNum + 10);
                expected += RecordDescriptor.recordLength(TestMessages.bytes(seqNum).length);
                assertEquals(expected, Files.size(StoreKind.FILE.recordsFile(dir)), "record " + seqNum + " written at once");
            }
            assertEquals(java.util.Arrays.toString(before), java.util.Arrays.toString(Files.readAllBytes(seqNums)),
                "the numbers wait for the duty cycle");

            // the process dies here, its store never closed: a new process finds what the OS has (a copy of the files)
            try (FileStore recovered = FileStore.open(copySessionFiles("crash-before-the-cycle-ended"), StoreKind.SESSION_KEY,
                new StoreOptions()))
            {
                assertEquals(List.of(1, 2, 3), replayed(recovered));
                assertEquals(4, recovered.nextSenderSeqNum(), "moved past the stored records");
            }
            store.flush(0);
            try (FileStore recovered = FileStore.open(copySessionFiles("crash-after-the-cycle"), StoreKind.SESSION_KEY,
                new StoreOptions()))
            {
                assertEquals(4, recovered.nextSenderSeqNum());
                assertEquals(13, recovered.nextTargetSeqNum());
            }
        }
    }

    @Test
    void everyMessageWritesAndForcesTheSequenceNumbersBeforeTheSetterReturns() throws IOException
    {
        try (FileStore store = FileStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().syncPolicy(SyncPolicy.EVERY_MESSAGE)))
        {
            final long forces = store.forceCount();
            store.nextTargetSeqNum(7);
            assertEquals(forces + 1, store.forceCount());
            try (FileStore recovered = FileStore.open(copySessionFiles("crash"), StoreKind.SESSION_KEY, new StoreOptions()))
            {
                assertEquals(7, recovered.nextTargetSeqNum());
            }
        }
    }

    private Path copySessionFiles(final String folder) throws IOException
    {
        final Path to = Files.createDirectories(dir.resolve(folder));
        Files.copy(StoreKind.FILE.recordsFile(dir), StoreKind.FILE.recordsFile(to));
        Files.copy(StoreKind.FILE.seqNumsFile(dir), StoreKind.FILE.seqNumsFile(to));
        return to;
    }

    private static List<Integer> replayed(final MessageStore store)
    {
        final List<Integer> seqNums = new ArrayList<>();
        store.replay(1, Integer.MAX_VALUE, (seqNum, buffer, offset, length) -> seqNums.add(seqNum));
        return seqNums;
    }
}
