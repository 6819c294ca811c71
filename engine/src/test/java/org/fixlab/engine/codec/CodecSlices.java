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
        "encodeAndFrameExecutionReport", "decodeOrder", "decodeStreamOrder"};

    private final CodecBenchmark benchmark = new CodecBenchmark();
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

    /** Runs {@code operation} {@code calls} times; returns the nanoseconds it took. */
    public long nanos(final String operation, final int calls)
    {
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

    private IntSupplier operation(final String operation)
    {
        return switch (operation)
        {
            case "encodeAndFrameOrder" -> benchmark::encodeAndFrameOrder;
            case "encodeAndFrameRoundTripOrder" -> benchmark::encodeAndFrameRoundTripOrder;
            case "encodeAndFrameExecutionReport" -> benchmark::encodeAndFrameExecutionReport;
            case "decodeOrder" -> benchmark::decodeOrder;
            case "decodeStreamOrder" -> benchmark::decodeStreamOrder;
            default -> throw unknownOperation(operation);
        };
    }

    /** The sum of every result so far: the same for two versions that frame and split the same bytes. */
    public long sink()
    {
        return sink;
    }
}
