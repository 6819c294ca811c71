package org.fixlab.engine.codec;

import java.util.function.IntSupplier;

/**
 * The work of {@link CodecBenchmark} in timed slices, for {@link CodecAB}: one instance per engine version, each
 * loaded with that version's classes, so that the two versions are compiled and timed side by side in one JVM.
 * Public and reflective-friendly on purpose: the driver reaches it through a class loader of its own.
 */
public final class CodecSlices
{
    /** What {@link #nanos} can run: {@link CodecBenchmark}'s methods of the same names. */
    public static final String[] OPERATIONS = {"encodeAndFrameOrder", "encodeAndFrameRoundTripOrder",
        "encodeAndFrameExecutionReport", "decodeOrder", "decodeStreamOrder", "decodeMixedOrder", "decodeExecutionReport",
        "encodeAndFrameRoundTripOrderCold", "encodeAndFrameExecutionReportCold", "decodeOrderCold"};

    /** The suffix of an operation timed call by call after the caches were cleared (see {@link #evictCaches}). */
    static final String COLD = "Cold";
    /**
     * Bytes read between two cold calls ({@code -Dcodecab.evictBytes}): 64 KiB, twice a core's L1 data cache on the VM
     * these figures come from, leaves the codec's lines in L2 at best, which is where the round trip finds them (below);
     * 2 MiB, twice its L2, takes code and data from memory, the bound a message pays after a long idle spell.
     */
    static final int EVICT_BYTES = Integer.getInteger("codecab.evictBytes", 64 << 10);
    /** A cold call costs an eviction besides: a slice makes this many times fewer of them. */
    static final int COLD_CALL_DIVISOR = 40;

    /** Warm calls before the first cold slice, so that the timed calls run compiled code. */
    private static final int COLD_WARM_UP_CALLS = 2_000_000;

    private final CodecBenchmark benchmark = new CodecBenchmark();
    private boolean coldWarmedUp;
    private final long[] evict = new long[EVICT_BYTES / Long.BYTES];
    /** Every result is added here, so that the JIT cannot drop a call whose result goes unused. */
    private long sink;

    public CodecSlices()
    {
        benchmark.frameOrders();
    }

    /** The error for a name that is not one of {@link #OPERATIONS}, with the list. */
    static IllegalArgumentException unknownOperation(final String operation)
    {
        return new IllegalArgumentException("unknown operation '" + operation + "' (expected one of "
            + String.join(", ", OPERATIONS) + ")");
    }

    /** How many calls {@link #nanos} makes for {@code calls} asked: fewer for a cold operation. */
    public static int callsMade(final String operation, final int calls)
    {
        return operation.endsWith(COLD) ? Math.max(1, calls / COLD_CALL_DIVISOR) : calls;
    }

    /** Runs {@code operation} {@link #callsMade} times; returns the nanoseconds the calls took. */
    public long nanos(final String operation, final int calls)
    {
        if (operation.endsWith(COLD))
        {
            final IntSupplier work = operation(operation.substring(0, operation.length() - COLD.length()));
            if (!coldWarmedUp)
            {
                // compiled first, the warm way: a JIT that has seen only cold calls (a few thousand a second) is still
                // compiling when the slices start, and the first of them timed code half interpreted
                coldWarmedUp = true;
                for (int i = 0; i < COLD_WARM_UP_CALLS; i++)
                {
                    sink += work.getAsInt();
                }
            }
            return coldNanos(work, callsMade(operation, calls));
        }
        // each JVM of make codec-ab runs one operation, so this call site sees one method and the JIT inlines it
        final IntSupplier work = operation(operation);
        long sum = 0;
        final long start = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            sum += work.getAsInt();
        }
        final long elapsed = System.nanoTime() - start;
        sink += sum;
        return elapsed;
    }

    /**
     * Each call timed on its own, after the caches were cleared by reading {@link #EVICT_BYTES}: the message as an
     * engine thread builds or splits it between two socket calls, whose trip through the kernel leaves little of the
     * codec's code and tables in the caches. The per-call clock reads (about 25 ns here) are in every figure alike.
     * Why: in a closed-loop round trip the client's order took 110-260 ns to build and 150-330 more to frame, store
     * and commit (clocks read inside the benchmark client, run by run), where the warm loop builds and frames it in
     * 110-180; cold, 155-270 with 64 KiB read between calls and 450-530 with 2 MiB. A change that touches fewer cache
     * lines shows only here.
     */
    private long coldNanos(final IntSupplier work, final int calls)
    {
        long sum = 0;
        long elapsed = 0;
        for (int i = 0; i < calls; i++)
        {
            sum += evictCaches();
            final long start = System.nanoTime();
            sum += work.getAsInt();
            elapsed += System.nanoTime() - start;
        }
        sink += sum;
        return elapsed;
    }

    /** Reads a long of every 64-byte line of {@link #EVICT_BYTES}, larger than the cache it clears; returns their sum. */
    private int evictCaches()
    {
        int sum = 0;
        for (int i = 0; i < evict.length; i += 64 / Long.BYTES)
        {
            sum += (int)evict[i];
        }
        return sum;
    }

    private IntSupplier operation(final String operation)
    {
        return switch (operation)
        {
            case "encodeAndFrameOrder" -> benchmark::encodeAndFrameOrder;
            case "encodeAndFrameRoundTripOrder" -> benchmark::encodeAndFrameRoundTripOrder;
            case "encodeAndFrameExecutionReport" -> benchmark::encodeAndFrameExecutionReport;
            case "decodeOrder" -> benchmark::decodeOrder;
            case "decodeStreamOrder" -> benchmark::decodeStreamOrder;
            case "decodeMixedOrder" -> benchmark::decodeMixedOrder;
            case "decodeExecutionReport" -> benchmark::decodeExecutionReport;
            default -> throw unknownOperation(operation);
        };
    }

    /** The sum of every result so far: the same for two versions that frame and split the same bytes. */
    public long sink()
    {
        return sink;
    }
}
