package org.fixlab.bench.client;

/**
 * Timestamps of the replies a client receives, in arrival order: t3 (bytes read from the socket)
 * and t4 (the application callback). Preallocated for the whole run so recording allocates
 * nothing. One writer thread (the product's callback thread); the volatile count publishes the
 * stores to the benchmark thread.
 */
public final class Replies
{
    private final long[] readNanos;
    private final long[] callbackNanos;
    private volatile int count;

    public Replies(final int capacity)
    {
        readNanos = new long[capacity];
        callbackNanos = new long[capacity];
    }

    public void record(final long t3, final long t4)
    {
        final int i = count;
        if (i < readNanos.length)
        {
            readNanos[i] = t3;
            callbackNanos[i] = t4;
        }
        count = i + 1;
    }

    public int count()
    {
        return count;
    }

    public long readNanos(final int i)
    {
        return readNanos[i];
    }

    public long callbackNanos(final int i)
    {
        return callbackNanos[i];
    }
}
