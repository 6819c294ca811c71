package org.fixlab.engine.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.fixlab.engine.store.MessageStoreContractTest.replayed;
import static org.fixlab.engine.store.MessageStoreContractTest.seqNums;
import static org.fixlab.engine.store.MessageStoreContractTest.storeRange;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link MappedStore}'s window: with the smallest chunk (one page) a few hundred messages move it on
 * dozens of times, so records behind it are replayed through positional reads, before and after a
 * reopen, under every sync policy, and a message larger than a chunk gets a window of its own.
 */
class MappedStoreWindowTest
{
    private static final int CHUNK = 4096;
    private static final int STORED = 600; // about 130 KB of records: over 30 windows of one page

    @TempDir
    Path dir;

    private MappedStore open(final SyncPolicy policy)
    {
        return MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().mappedChunkBytes(CHUNK).indexCapacity(16)
            .syncPolicy(policy).syncIntervalNanos(1));
    }

    @ParameterizedTest
    @EnumSource(SyncPolicy.class)
    void replaysEveryRecordAcrossManyWindowsBeforeAndAfterAReopen(final SyncPolicy policy)
    {
        try (MappedStore store = open(policy))
        {
            for (int seqNum = 1; seqNum <= STORED; seqNum++)
            {
                storeRange(store, seqNum, seqNum);
                store.nextSenderSeqNum(seqNum + 1);
                store.flush(System.nanoTime());
                if (seqNum % 50 == 0)
                {
                    // replays read ahead into the window being written; what they cached must not be taken
                    // for the records that fill it afterwards
                    assertEquals(seqNums(1, seqNum), replayed(store, 1, Integer.MAX_VALUE));
                }
            }
        }
        assertTrue(fileLength() > 30L * CHUNK, "the records span many windows: " + fileLength());

        try (MappedStore store = open(policy))
        {
            assertEquals(STORED + 1, store.nextSenderSeqNum());
            assertEquals(seqNums(1, STORED), replayed(store, 1, Integer.MAX_VALUE));
            storeRange(store, STORED + 1, STORED + 100);
            assertEquals(seqNums(STORED - 10, STORED + 100), replayed(store, STORED - 10, Integer.MAX_VALUE));
        }
    }

    @Test
    void givesAMessageLargerThanAChunkAWindowOfItsOwn()
    {
        final byte[] large = new byte[3 * CHUNK + 17];
        for (int i = 0; i < large.length; i++)
        {
            large[i] = (byte)('A' + i % 26);
        }
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            storeRange(store, 1, 10);
            store.storeSent(11, new UnsafeBuffer(large), 0, large.length);
            storeRange(store, 12, 20);
        }
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            final int[] lengths = new int[21];
            assertEquals(20, store.replay(1, 20, (seqNum, buffer, offset, length) ->
            {
                lengths[seqNum] = length;
                if (seqNum == 11)
                {
                    final byte[] back = new byte[length];
                    buffer.getBytes(offset, back);
                    assertEquals(new String(large, java.nio.charset.StandardCharsets.US_ASCII),
                        new String(back, java.nio.charset.StandardCharsets.US_ASCII));
                }
                else
                {
                    TestMessages.assertIs(seqNum, 0, buffer, offset, length);
                }
            }));
            assertEquals(large.length, lengths[11]);
            assertEquals(21, store.nextSenderSeqNum());
        }
    }

    /**
     * A session with idle duty cycles between its messages: those cycles unmap the old window, map the next one and
     * ready its pages, so storeSent never maps or readies a window itself, and a cycle that stored does not step.
     */
    @Test
    void idleDutyCyclesPrepareTheNextWindowAheadOfTheRecords()
    {
        final int chunk = 64 * 1024;
        final Random random = new Random(7);
        final List<byte[]> stored = new ArrayList<>();
        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().mappedChunkBytes(chunk)
            .indexCapacity(16)))
        {
            assertFalse(store.nextWindowReady(), "nothing prepared before a duty cycle");
            final long oneWindow = fileLength();
            for (int seqNum = 1; seqNum <= 2_000; seqNum++)
            {
                store(store, stored, seqNum, 1 + random.nextInt(700));
                store.flush(System.nanoTime()); // the cycle that stored: no step
                if (seqNum == 1)
                {
                    assertEquals(oneWindow, fileLength(), "a cycle that stored maps no next window");
                    store.flush(System.nanoTime());
                    assertTrue(fileLength() > oneWindow, "an idle cycle maps the next window, which extends the file");
                }
                for (int idle = 0; idle < 4; idle++)
                {
                    store.flush(System.nanoTime());
                }
            }
            assertTrue(store.nextWindowReady());
            assertEquals(0, store.unpreparedMoves());
            assertReplays(stored, store);
        }
        assertTrue(fileLength() > 10L * chunk, "the records span many windows: " + fileLength());
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            assertReplays(stored, store);
        }
    }

    /**
     * A stream stores with no idle duty cycle: storeSent takes the steps itself as the window fills, and still moves
     * on to a prepared window every time. Records of every length end at every offset of a window, so a zero readied
     * over a record's bytes, or a window mapped where the data does not end, fails the byte-by-byte replay.
     */
    @ParameterizedTest
    @EnumSource(SyncPolicy.class)
    void aStreamWithoutIdleCyclesMovesOnToPreparedWindows(final SyncPolicy policy)
    {
        final int chunk = 16 * 1024;
        final Random random = new Random(11);
        final List<byte[]> stored = new ArrayList<>();
        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().mappedChunkBytes(chunk)
            .indexCapacity(16).syncPolicy(policy).syncIntervalNanos(1)))
        {
            for (int seqNum = 1; seqNum <= 3_000; seqNum++)
            {
                store(store, stored, seqNum, 1 + random.nextInt(chunk / 4 - RecordDescriptor.HEADER_LENGTH - 8));
            }
            assertEquals(0, store.unpreparedMoves(), "every record fit in the prepared next window");
            assertReplays(stored, store);
        }
        assertTrue(fileLength() > 50L * chunk, "the records span many windows: " + fileLength());
        try (MappedStore store = open(policy))
        {
            assertReplays(stored, store);
            assertEquals(stored.size() + 1, store.nextSenderSeqNum());
        }
    }

    /**
     * The first window is 1 MiB when the chunk is larger, so the first move on comes a few thousand messages in; in a
     * stream with no idle cycle, storeSent readies the larger next window as fast, in proportion, as the small one
     * fills, so it is ready when the small one is full.
     */
    @Test
    void theFirstWindowIsSmallAndTheLargerNextOneIsReadyWhenItIsFull()
    {
        final int chunk = 4 * 1024 * 1024;
        final int length = 230;
        final int recordLength = RecordDescriptor.recordLength(length);
        final int firstWindow = 1024 * 1024;
        final List<byte[]> stored = new ArrayList<>();
        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().mappedChunkBytes(chunk)
            .indexCapacity(16)))
        {
            assertEquals(MappedStore.RECORDS_OFFSET + firstWindow, fileLength(), "the first window is 1 MiB");
            final int fitting = firstWindow / recordLength;
            for (int seqNum = 1; seqNum <= fitting; seqNum++)
            {
                store(store, stored, seqNum, length); // a stream: no duty cycle between the stores
            }
            assertTrue(store.nextWindowReady(), "the next window is readied by the time the first is full");
            for (int seqNum = fitting + 1; seqNum <= 3 * fitting; seqNum++)
            {
                store(store, stored, seqNum, length);
            }
            assertEquals(0, store.unpreparedMoves());
            assertTrue(fileLength() > chunk, "the windows after the first are a chunk: " + fileLength());
            assertReplays(stored, store);
        }
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            assertReplays(stored, store);
        }
    }

    /**
     * An idle duty cycle readies 64 KiB of the next window, which a message arriving meanwhile waits for; a stream's
     * own step readies 256 KiB, whose larger page-cache folios take fewer page faults to touch.
     */
    @Test
    void anIdleCycleReadiesLessAtATimeThanAStreamsStep()
    {
        final int chunk = 4 * 1024 * 1024;
        final int length = 230;
        final List<byte[]> stored = new ArrayList<>();
        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().mappedChunkBytes(chunk)
            .indexCapacity(16)))
        {
            store(store, stored, 1, length);
            store.prepareAhead(); // maps the next window
            final int mapped = store.nextReadiedTo();
            store.prepareAhead();
            assertEquals(64 * 1024, store.nextReadiedTo() - mapped, "an idle cycle's step");
            final int idle = store.nextReadiedTo();
            int seqNum = 2;
            while (store.nextReadiedTo() == idle)
            {
                store(store, stored, seqNum++, length); // a stream: no duty cycle between the stores
            }
            assertEquals(256 * 1024, store.nextReadiedTo() - idle, "a stream's step, after " + (seqNum - 2) + " stores");
            assertReplays(stored, store);
        }
    }

    @Test
    void aRecordLongerThanTheOverlapMovesOnToAWindowMappedThereAndThen()
    {
        final int chunk = 16 * 1024;
        final List<byte[]> stored = new ArrayList<>();
        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions().mappedChunkBytes(chunk)
            .indexCapacity(16)))
        {
            for (int seqNum = 1; seqNum <= 40; seqNum++)
            {
                // each almost half a chunk: the one that does not fit ends the window a quarter or more early
                store(store, stored, seqNum, chunk / 2 - 100);
            }
            assertTrue(store.unpreparedMoves() > 0, "a record longer than the overlap fits no prepared window");
            assertReplays(stored, store);
        }
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            assertReplays(stored, store);
        }
    }

    /**
     * A full disk, as a file size limit ({@code ulimit -f}) makes one in a child JVM: the idle step that maps a window
     * past the limit fails once, from the duty cycle, and never again on the idle cycles after it; the move on then
     * maps a window itself and fails in storeSent before writing the record, as often as it is called; and every
     * record whose storeSent returned is there after a reopen without the limit.
     */
    @Test
    void aFullDiskFailsOneDutyCycleThenEachStoreThatNeedsAWindow() throws IOException, InterruptedException
    {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit");
        final Path errors = dir.resolve("child-errors.txt");
        // 3 MiB: the first window, two more mapped ahead, and not the fourth
        final Process child = new ProcessBuilder("/bin/bash", "-c",
            "ulimit -f 3072 && exec \"$0\" " + String.join(" ", ChildJvm.engineFlags()) + " -Xmx128m -cp \"$1\" \"$2\" \"$3\"",
            ChildJvm.executable(), System.getProperty("java.class.path"),
            FileLimitWriter.class.getName(), dir.toString())
            .redirectError(errors.toFile())
            .start();
        final String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
        assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), () -> output + " " + readErrors(errors));
        final java.util.regex.Matcher result = java.util.regex.Pattern
            .compile("flushFailures=(\\d+) storeFailedAt=(-?\\d+) storeFailedAgain=(\\w+)").matcher(output);
        assertTrue(result.matches(), output);
        assertEquals(1, Integer.parseInt(result.group(1)), "one failed step, not one per idle cycle: " + output);
        final int failedAt = Integer.parseInt(result.group(2));
        assertTrue(failedAt > 1000, "the store failed where the limit is, not before: " + output);
        assertEquals("true", result.group(3), "a store that needs a window fails while the disk is full");

        try (MappedStore store = MappedStore.open(dir, StoreKind.SESSION_KEY, new StoreOptions()
            .mappedChunkBytes(FileLimitWriter.CHUNK).indexCapacity(16)))
        {
            assertEquals(failedAt - 1, store.replay(1, Integer.MAX_VALUE,
                (seqNum, buffer, offset, length) -> TestMessages.assertIs(seqNum, 0, buffer, offset, length)));
            assertEquals(failedAt, store.nextSenderSeqNum());
        }
    }

    private static String readErrors(final Path errors)
    {
        try
        {
            return Files.readString(errors);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    private static void store(final MappedStore store, final List<byte[]> stored, final int seqNum, final int length)
    {
        final byte[] message = TestMessages.pattern(length, seqNum);
        store.storeSent(seqNum, new UnsafeBuffer(message), 0, length);
        store.nextSenderSeqNum(seqNum + 1);
        stored.add(message);
    }

    private static void assertReplays(final List<byte[]> stored, final MappedStore store)
    {
        final List<byte[]> back = replayedBytes(store);
        assertEquals(stored.size(), back.size());
        for (int i = 0; i < stored.size(); i++)
        {
            assertArrayEquals(stored.get(i), back.get(i), "message " + (i + 1));
        }
    }

    private static List<byte[]> replayedBytes(final MappedStore store)
    {
        final List<byte[]> back = new ArrayList<>();
        store.replay(1, Integer.MAX_VALUE, (seqNum, buffer, offset, length) ->
        {
            assertEquals(back.size() + 1, seqNum);
            back.add(TestMessages.copyOf(buffer, offset, length));
        });
        return back;
    }

    @Test
    void resetShrinksTheFileToOneChunkAndStartsAgain()
    {
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            storeRange(store, 1, STORED);
            store.reset();
            assertEquals(MappedStore.RECORDS_OFFSET + CHUNK, fileLength());
            assertEquals(List.of(), replayed(store, 1, Integer.MAX_VALUE));
            storeRange(store, 1, 100);
            assertEquals(seqNums(1, 100), replayed(store, 1, Integer.MAX_VALUE));
        }
        try (MappedStore store = open(SyncPolicy.NONE))
        {
            assertEquals(seqNums(1, 100), replayed(store, 1, Integer.MAX_VALUE));
        }
    }

    private long fileLength()
    {
        try
        {
            return Files.size(dir.resolve(StoreKind.SESSION_KEY + MappedStore.FILE_SUFFIX));
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }
}
