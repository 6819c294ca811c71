package org.fixlab.engine.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Nanoseconds per storeSent of a 200-byte message for each store, the median of several timed runs,
 * and the cost of the persistent stores relative to {@link MemoryStore}. A main, not a test:
 * <pre>
 *   java -cp engine/target/test-classes:engine/target/classes:$(cat engine/target/classpath.txt) \
 *       org.fixlab.engine.store.StoreCostBenchmark [messagesPerRun]
 * </pre>
 * Each run stores fresh sequence numbers into a store reset before the run, outside the timing;
 * sync policy NONE, the default chunk and ring sizes. The first runs are warm-up and not counted.
 */
public final class StoreCostBenchmark
{
    private static final int MESSAGE_LENGTH = 200;
    private static final int WARM_UP_RUNS = 5;
    private static final int TIMED_RUNS = 9;

    private StoreCostBenchmark()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final int messagesPerRun = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        final byte[] bytes = new byte[MESSAGE_LENGTH];
        Arrays.fill(bytes, (byte)'x');
        final UnsafeBuffer message = new UnsafeBuffer(bytes);
        final Path dir = Files.createTempDirectory("store-cost");
        final StoreOptions options = new StoreOptions().indexCapacity(Integer.highestOneBit(messagesPerRun) << 1);

        final Map<StoreType, Double> nanosPerStore = new EnumMap<>(StoreType.class);
        for (final StoreType type : StoreType.values())
        {
            try (MessageStore store = MessageStores.open(type, dir, "BENCH-" + type, options))
            {
                final double[] runs = new double[TIMED_RUNS];
                for (int run = -WARM_UP_RUNS; run < TIMED_RUNS; run++)
                {
                    store.reset();
                    final long start = System.nanoTime();
                    storeMessages(store, messagesPerRun, message);
                    final double nanos = (double)(System.nanoTime() - start) / messagesPerRun;
                    if (run >= 0)
                    {
                        runs[run] = nanos;
                    }
                }
                Arrays.sort(runs);
                nanosPerStore.put(type, runs[TIMED_RUNS / 2]);
                System.out.printf("%-7s %8.1f ns/storeSent (median of %d runs of %,d; min %.1f, max %.1f)%n",
                    type, runs[TIMED_RUNS / 2], TIMED_RUNS, messagesPerRun, runs[0], runs[TIMED_RUNS - 1]);
            }
        }
        final double memory = nanosPerStore.get(StoreType.MEMORY);
        System.out.printf("Mapped/Memory %.2f%nFile/Memory   %.2f%n",
            nanosPerStore.get(StoreType.MAPPED) / memory, nanosPerStore.get(StoreType.FILE) / memory);
        deleteAll(dir);
    }

    private static void storeMessages(final MessageStore store, final int count, final UnsafeBuffer message)
    {
        for (int seqNum = 1; seqNum <= count; seqNum++)
        {
            store.storeSent(seqNum, message, 0, MESSAGE_LENGTH);
        }
    }

    private static void deleteAll(final Path dir) throws IOException
    {
        try (var files = Files.list(dir))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
