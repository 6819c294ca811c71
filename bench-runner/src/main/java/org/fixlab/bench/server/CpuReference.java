package org.fixlab.bench.server;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fixlab.bench.run.Samples;

/**
 * A fixed piece of work timed on the stream's receiving thread at each of its progress points, and on its sending
 * thread every 10,000 sends: how fast each thread's CPU ran while the run measured. Recorded in the manifest
 * ({@code hardware.hosts[].cpu_reference} and {@code sender_cpu_reference}); the pipeline refuses a stream whose
 * receiving thread's reading is far above the campaign's usual one (steady.CPU_REFERENCE_BOUND).
 *
 * <p>Why: on the 2-vCPU VM these results come from, a plain loop sometimes runs at half its usual speed for hundreds of
 * milliseconds, on one CPU and not the other, with no steal time counted. A stream is as fast as its receiver. In 30
 * raw-socket streams with a throwaway version of this reading (eight passes, no untimed one; 2026-11-30), the three
 * whose receiving thread took 10.5-13.0 us for it (22 of the others took 6.7-7.6) streamed 4.0-5.3M orders a second,
 * the other 27 5.0-8.2M; a reading before and after each run, from another process, told the runs apart much worse.
 *
 * <p>What: the search the raw-socket baseline makes for the end of each order ({@code SOH 10=}) over ten orders of
 * 123 bytes, once untimed (to bring them back into the first-level cache, whatever the product's memory traffic did),
 * then four times timed: loads, compares and branches, with no system call, no allocation and nothing shared with the
 * product. About 3.5 us at the usual speed, once every 10,000 orders, where an order takes 100-300 ns: under 0.3% of a
 * stream.
 *
 * <p>The same machine code in every product: bin/fixlab-bench tells the JIT never to inline this class's methods
 * ({@code -XX:CompileCommand=dontinline}), so each is compiled on its own, not into the product's receive path. Compiled
 * into it, the readings depended on the product's code: 3.4-4.1 us on the raw socket's and fixlab {@code optimized}'s
 * receiving threads, 3.5-6.5 us on fixlab {@code balanced}'s at its usual stream rates (5.0-5.9 in three streams in a
 * row). Compiled on its own, 3.4-3.9 us on each of them and on QuickFIX/J's (2026-11-30), and 6.5 us on a
 * {@code balanced} stream the host slowed (2.07M orders a second, against 2.6-3.0M).
 */
public final class CpuReference
{
    private static final int ORDER_LENGTH = 123;
    private static final int ORDERS = 10;
    private static final int PASSES = 4;
    private static final byte[] ORDERS_BYTES = orders();
    /** Keeps the searches' result alive, so that the JIT cannot drop them. */
    private static long found;

    private CpuReference()
    {
    }

    /** The nanoseconds the work took now, on the calling thread. */
    public static long measure()
    {
        // one pass untimed, which brings the orders back into the first-level cache: whatever the product's own
        // memory traffic evicted since the last reading is then not in the time (QuickFIX/J's allocation added a
        // microsecond to a cold reading)
        long count = endsOfOrders(ORDERS_BYTES);
        final long start = System.nanoTime();
        for (int pass = 0; pass < PASSES; pass++)
        {
            count += endsOfOrders(ORDERS_BYTES);
        }
        final long elapsed = System.nanoTime() - start;
        found += count;
        return elapsed;
    }

    /**
     * The manifest's {@code cpu_reference} of the receiving host: how many readings the measured orders had, their
     * median (the lower middle one of an even count) and their 90th percentile (more than a tenth of the readings are at
     * least that), both by nearest rank ({@link Samples#quantile}); null for a run without them (not a stream). Why the 90th:
     * the host slows a CPU for stretches of tens of milliseconds, and a stream slowed for a fifth of its window keeps a
     * usual median. In one such fixlab {@code optimized} stream (2026-12-01) the receiving thread read 5.0-6.7 us at
     * the first 20 of its 100 points, where the stream ran at 2.9-3.9M orders a second, then 3.4-3.5 us and 5.0-5.5M:
     * 4.67M over the window, with a median reading of 3,453 ns and a 90th percentile of 5,171.
     */
    public static Map<String, Object> manifestEntry(final long[] readings)
    {
        if (readings == null || readings.length == 0)
        {
            return null;
        }
        final long[] sorted = readings.clone();
        Arrays.sort(sorted);
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("readings", sorted.length);
        entry.put("p50_ns", Samples.quantile(sorted, 0.5));
        entry.put("p90_ns", Samples.quantile(sorted, 0.9));
        return entry;
    }

    /** How many orders end in {@code bytes}: the raw-socket baseline's search, a byte at a time. */
    static int endsOfOrders(final byte[] bytes)
    {
        int ends = 0;
        for (int i = 0; i + 7 < bytes.length; i++)
        {
            if (bytes[i] == 1 && bytes[i + 1] == '1' && bytes[i + 2] == '0' && bytes[i + 3] == '=')
            {
                ends++;
                i += 7;
            }
        }
        return ends;
    }

    /** Ten orders' worth of fields (an SOH every 12 bytes) each ending in {@code SOH 10=123 SOH}. */
    static byte[] orders()
    {
        final byte[] bytes = new byte[ORDER_LENGTH * ORDERS];
        for (int order = 0; order < ORDERS; order++)
        {
            final int at = order * ORDER_LENGTH;
            for (int i = 0; i < ORDER_LENGTH - 8; i++)
            {
                bytes[at + i] = (byte)(i % 12 == 11 ? 1 : 'A' + i % 26);
            }
            final byte[] trailer = {1, '1', '0', '=', '1', '2', '3', 1};
            System.arraycopy(trailer, 0, bytes, at + ORDER_LENGTH - 8, trailer.length);
        }
        return bytes;
    }
}
