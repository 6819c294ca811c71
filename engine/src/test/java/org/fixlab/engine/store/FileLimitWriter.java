package org.fixlab.engine.store;

import java.io.UncheckedIOException;
import java.nio.file.Path;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The child process of {@link MappedStoreWindowTest}'s full-disk test, run under a file size limit
 * ({@code ulimit -f}): stores {@link TestMessages} into a {@link MappedStore} of 1 MiB windows with idle duty
 * cycles between them until {@code storeSent} fails, then prints how many flushes failed, the first sequence
 * number whose store failed, and whether a second store after it failed too.
 *
 * <p>Arguments: the store directory.
 */
public final class FileLimitWriter
{
    static final int CHUNK = 1 << 20;
    private static final int IDLE_CYCLES = 4;

    private FileLimitWriter()
    {
    }

    public static void main(final String[] args)
    {
        int flushFailures = 0;
        int storeFailedAt = -1;
        boolean storeFailedAgain = false;
        try (MappedStore store = MappedStore.open(Path.of(args[0]), StoreKind.SESSION_KEY,
            new StoreOptions().mappedChunkBytes(CHUNK).indexCapacity(16)))
        {
            for (int seqNum = 1; seqNum < 1_000_000 && storeFailedAt < 0; seqNum++)
            {
                final UnsafeBuffer message = TestMessages.buffer(seqNum);
                try
                {
                    store.storeSent(seqNum, message, 0, message.capacity());
                }
                catch (final UncheckedIOException ex)
                {
                    storeFailedAt = seqNum;
                    try
                    {
                        store.storeSent(seqNum, message, 0, message.capacity());
                    }
                    catch (final UncheckedIOException again)
                    {
                        storeFailedAgain = true;
                    }
                    break;
                }
                store.nextSenderSeqNum(seqNum + 1);
                for (int cycle = 0; cycle <= IDLE_CYCLES; cycle++)
                {
                    try
                    {
                        store.flush(System.nanoTime()); // the cycle that stored, then idle ones
                    }
                    catch (final UncheckedIOException ex)
                    {
                        flushFailures++;
                    }
                }
            }
        }
        System.out.println("flushFailures=" + flushFailures + " storeFailedAt=" + storeFailedAt + " storeFailedAgain=" +
            storeFailedAgain);
    }
}
