package org.fixlab.bench.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the server side measures, in preallocated arrays: per inbound order t3 (socket read), t4
 * (callback), t1 (before the answer is sent) and t2 (just before the answer's socket write); and, every
 * {@link #pointInterval} orders from the first one, a progress point (orders so far, callback time, bytes the
 * callback thread allocated), from which the stream's throughput and the allocation per message over the
 * measured orders are taken; in a stream, also how long a fixed piece of work took there ({@link CpuReference}).
 * Written by the thread that runs the product's callbacks; {@link #complete()} is read by the server's main thread.
 * <p>
 * Nothing here branches differently once the warm-up is over: a branch the JIT has never seen taken is
 * compiled as a trap, and taking it for the first time at the first measured order would send the server's whole
 * inlined receive path back to the interpreter for the first milliseconds of the measurement. The warm-up's
 * end is found afterwards, among the points (the interval divides both the warm-up and the total).
 */
public final class ServerRecorder
{
    private final int warmup;
    private final int total;
    private final boolean perMessage;
    private final long[] t3;
    private final long[] t4;
    private final long[] t1;
    private final long[] t2;
    private final int every;
    private final long[] pointOrders;
    private final long[] pointNanos;
    /** The callback time of the order after each point (of the first order at index 0): where a round starts. */
    private final long[] roundStartNanos;
    private final long[] pointAllocated;
    /** At each point of a stream, the nanoseconds {@link CpuReference} took on the receiving thread; null otherwise. */
    private final long[] pointReference;
    private int points;
    private long startNanos;
    private int untilPoint;
    /** Written by the callback thread with release semantics, read by the main thread with acquire: no fence per order. */
    private int requests;
    private int answered;
    private static final VarHandle REQUESTS;
    private static final VarHandle ANSWERED;

    static
    {
        try
        {
            REQUESTS = MethodHandles.lookup().findVarHandle(ServerRecorder.class, "requests", int.class);
            ANSWERED = MethodHandles.lookup().findVarHandle(ServerRecorder.class, "answered", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * @param cpuReference whether to time {@link CpuReference} at each point: for the stream, whose rate is the
     *                     receiving thread's; a round trip would carry its microseconds in one order's latency
     */
    public ServerRecorder(final int warmup, final int messages, final boolean perMessage, final boolean cpuReference)
    {
        this.warmup = warmup;
        this.total = warmup + messages;
        this.perMessage = perMessage;
        final int n = perMessage ? total : 0;
        t3 = new long[n];
        t4 = new long[n];
        t1 = new long[n];
        t2 = new long[n];
        every = pointInterval(warmup, messages);
        untilPoint = every;
        pointOrders = new long[total / every + 1];
        pointNanos = new long[pointOrders.length];
        roundStartNanos = new long[pointOrders.length];
        pointAllocated = new long[pointOrders.length];
        pointReference = cpuReference ? new long[pointOrders.length] : null;
        allocatedBytes(); // links the native call now, not at the first measured message
    }

    /**
     * About 100 points over the measured orders (at most one per 10,000), at an interval that divides both the
     * warm-up and the total, so that points fall exactly on the warm-up's end and on the last order.
     */
    static int pointInterval(final int warmup, final int messages)
    {
        final int target = Math.max(1, Math.min(10_000, messages / 100));
        final int common = gcd(warmup, messages);
        for (int every = target; every > 1; every--)
        {
            if (common % every == 0)
            {
                return every;
            }
        }
        return 1;
    }

    private static int gcd(final int a, final int b)
    {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** The client is about to send: with no warm-up, the stream's clock starts here. */
    public void start(final long nowNanos)
    {
        startNanos = nowNanos;
    }

    /**
     * The callback time to pass to the next {@link #onRequest}: {@code System.nanoTime()} where the recorder keeps it
     * (every order of an internal run, the order of each progress point and the one after it), else 0, without
     * reading the clock. Read for every order of a stream, the clock took 6.7-9.4% of fixlab's receiving thread and a
     * larger share of the raw socket's, for two times kept in 10,000 orders.
     */
    public long callbackNanos()
    {
        return perMessage || untilPoint == 1 || untilPoint == every ? System.nanoTime() : 0;
    }

    /** An order arrived: returns its index (arrival order), or -1 beyond the expected total. */
    public int onRequest(final long readNanos, final long callbackNanos)
    {
        final int i = requests;
        if (i >= total)
        {
            return -1;
        }
        if (perMessage)
        {
            t3[i] = readNanos;
            t4[i] = callbackNanos;
        }
        if (untilPoint == every)
        {
            roundStartNanos[points] = callbackNanos;
        }
        if (--untilPoint == 0) // every `every` orders, counted down rather than divided
        {
            untilPoint = every;
            pointOrders[points] = i + 1;
            pointNanos[points] = callbackNanos;
            pointAllocated[points] = allocatedBytes();
            if (pointReference != null)
            {
                pointReference[points] = CpuReference.measure();
            }
            points++;
        }
        REQUESTS.setRelease(this, i + 1);
        return i;
    }

    /** The answer to order {@code i} was handed to the product at t1. */
    public void onAnswer(final int i, final long sendNanos)
    {
        if (perMessage && i >= 0)
        {
            t1[i] = sendNanos;
        }
    }

    /** The answer to order {@code i} reached the socket write at t2. */
    public void onAnswerWritten(final int i, final long writeNanos)
    {
        if (perMessage && i >= 0)
        {
            t2[i] = writeNanos;
            ANSWERED.setRelease(this, i + 1); // publishes t1 and t2 to the main thread's arrays()
        }
    }

    public int requests()
    {
        return (int)REQUESTS.getAcquire(this);
    }

    public boolean complete()
    {
        return requests() >= total;
    }

    public int total()
    {
        return total;
    }

    /** The arrays sent back to the client over the control channel. */
    public Map<String, long[]> arrays()
    {
        // pair with the callback thread's release stores, so every timestamp written before them is visible here
        ANSWERED.getAcquire(this);
        REQUESTS.getAcquire(this);
        final Map<String, long[]> arrays = new LinkedHashMap<>();
        if (perMessage)
        {
            arrays.put("t3", t3);
            arrays.put("t4", t4);
            arrays.put("t1", t1);
            arrays.put("t2", t2);
        }
        else
        {
            // the stream is timed from the callback of the first measured order (or from start() without a warm-up),
            // and counts the orders after it
            final int from = warmup / every;
            final long base = warmup == 0 ? startNanos : roundStartNanos[from];
            final int counted = warmup == 0 ? 0 : 1;
            int first = from;
            while (first < points && pointOrders[first] - warmup - counted <= 0)
            {
                first++; // a point on the first measured order itself (an interval of 1) counts no order after it
            }
            final long[] elapsed = new long[points - first];
            final long[] orders = new long[points - first];
            for (int p = first; p < points; p++)
            {
                elapsed[p - first] = pointNanos[p] - base;
                orders[p - first] = pointOrders[p] - warmup - counted;
            }
            arrays.put("elapsed_ns", elapsed);
            arrays.put("messages", orders);
            if (pointReference != null)
            {
                // the readings at the points that end the measured intervals: each came after the interval it ends
                arrays.put("cpu_reference_ns", Arrays.copyOfRange(pointReference, first, points));
            }
        }
        // allocation from the warm-up's last order (without a warm-up, from the first point) to the last order
        final int first = Math.max(warmup / every, 1) - 1;
        final boolean measured = points == total / every && points > first + 1 && pointAllocated[first] >= 0;
        arrays.put("allocated", measured
            ? new long[] {pointAllocated[points - 1] - pointAllocated[first], pointOrders[points - 1] - pointOrders[first]}
            : new long[] {-1, total - warmup});
        return arrays;
    }

    /**
     * Looked up when the class loads, before any message: the first ManagementFactory call loads the JMX classes,
     * milliseconds that would otherwise stall the first measured message (and the backlog behind it).
     */
    private static final com.sun.management.ThreadMXBean THREADS =
        ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemorySupported()
            ? sun : null;

    /** Bytes allocated so far by the calling thread (the one that runs the callbacks). */
    public static long allocatedBytes()
    {
        return THREADS != null ? THREADS.getCurrentThreadAllocatedBytes() : -1;
    }
}
