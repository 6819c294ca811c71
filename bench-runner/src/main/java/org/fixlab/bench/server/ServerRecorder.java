package org.fixlab.bench.server;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the server side measures, in preallocated arrays: per inbound order t3 (socket read), t4
 * (callback), t1 (before the answer is sent) and t2 (just before the answer's socket write); for
 * the throughput stream, progress points from the end of the warm-up. Written by the thread that
 * runs the product's callbacks; {@link #complete()} is read by the server's main thread.
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
    private final long[] pointElapsed;
    private final long[] pointMessages;
    private final int every;
    private int points;
    private long measureStart;
    private long allocatedAtStart = -1;
    private long allocatedAtEnd = -1;
    private volatile int requests;
    private volatile int answered;

    public ServerRecorder(final int warmup, final int messages, final boolean perMessage)
    {
        this.warmup = warmup;
        this.total = warmup + messages;
        this.perMessage = perMessage;
        final int n = perMessage ? total : 0;
        t3 = new long[n];
        t4 = new long[n];
        t1 = new long[n];
        t2 = new long[n];
        every = Math.max(1, Math.min(10_000, messages / 100));
        pointElapsed = new long[messages / every + 2];
        pointMessages = new long[pointElapsed.length];
    }

    /** The client is about to send: with no warm-up, the stream's clock starts here. */
    public void start(final long nowNanos)
    {
        measureStart = nowNanos;
        if (warmup == 0)
        {
            allocatedAtStart = allocatedBytes();
        }
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
        else
        {
            final int measured = i + 1 - warmup;
            if (measured == 0)
            {
                measureStart = callbackNanos;
                allocatedAtStart = allocatedBytes();
            }
            else if (measured > 0 && (measured % every == 0 || i + 1 == total))
            {
                pointElapsed[points] = callbackNanos - measureStart;
                pointMessages[points++] = measured;
            }
        }
        if (perMessage && i == warmup)
        {
            allocatedAtStart = allocatedBytes();
        }
        if (i + 1 == total)
        {
            allocatedAtEnd = allocatedBytes();
        }
        requests = i + 1;
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
            answered = i + 1;
        }
    }

    public int requests()
    {
        return requests;
    }

    public boolean complete()
    {
        return requests >= total;
    }

    public int total()
    {
        return total;
    }

    /** The arrays sent back to the client over the control channel. */
    public Map<String, long[]> arrays()
    {
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
            arrays.put("elapsed_ns", java.util.Arrays.copyOf(pointElapsed, points));
            arrays.put("messages", java.util.Arrays.copyOf(pointMessages, points));
        }
        final int measured = total - warmup;
        final long bytes = allocatedAtStart >= 0 && allocatedAtEnd >= 0 ? allocatedAtEnd - allocatedAtStart : -1;
        arrays.put("allocated", new long[] {bytes, measured});
        return arrays;
    }

    /** Bytes allocated so far by the calling thread (the one that runs the callbacks). */
    public static long allocatedBytes()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (bean instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemorySupported())
        {
            return sun.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }
}
