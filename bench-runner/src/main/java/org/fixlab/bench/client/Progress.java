package org.fixlab.bench.client;

import org.fixlab.bench.server.ServerRecorder;

/**
 * One progress line per second on stderr (scenario, product, messages done, rate), checked every
 * 1024 messages so the loops stay cheap. What printing allocates is counted apart, so the
 * allocation figure of the measured loop is the product's alone.
 */
final class Progress
{
    private final String label;
    private final int total;
    private final boolean quiet;
    private final long start = System.nanoTime();
    private long nextPrint = start + 1_000_000_000L;
    private long printAllocated;

    Progress(final String label, final int total, final boolean quiet)
    {
        this.label = label;
        this.total = total;
        this.quiet = quiet;
    }

    void tick(final int done)
    {
        if (quiet || (done & 1023) != 0)
        {
            return;
        }
        final long now = System.nanoTime();
        if (now < nextPrint)
        {
            return;
        }
        nextPrint = now + 1_000_000_000L;
        final long before = ServerRecorder.allocatedBytes();
        System.err.printf("  %s: %,d / %,d messages, %,.0f msg/s%n", label, done, total, done * 1e9 / (now - start));
        printAllocated += ServerRecorder.allocatedBytes() - before;
    }

    long printAllocated()
    {
        return printAllocated;
    }
}
