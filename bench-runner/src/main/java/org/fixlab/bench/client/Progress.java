package org.fixlab.bench.client;

/**
 * Progress lines on stderr (scenario, product, messages done, rate): one a second while the warm-up runs, none while
 * the measured messages run, and one when they are done. Checked every 1024 messages so the loops stay cheap.
 *
 * <p>None while measuring, because the first line printed from a compiled loop takes a branch the JIT had never seen
 * taken and had compiled as a trap: taking it sent the loop, with the product's code inlined into it, back to the
 * interpreter while it was compiled again. A fixlab stream's warm-up of 3,000,000 orders ends before the first second,
 * so its first line came in the measured million (at 2.7M to 3.8M of 4M orders in one campaign). In JFR recordings of
 * thirty such streams (jdk.Deoptimization, and every allocation with TLABs off) the trap came some 30 ms before the
 * measured window in two of them, and the window started while the loop was compiled again: the JVM allocated 1 to
 * 3 KB on the sending thread then, which the run reported as 0.001 and 0.003 B/msg. Silenced, none of the next 45 runs
 * allocated (30 recorded the same way, 15 in a campaign). Whether the recompile also slowed those windows could not be
 * told apart from the stream's other swings of a third (the raw socket has them too).
 *
 * <p>The measured round is silenced by an addition, not a test: the loop's branches are the ones the warm-up took.
 */
final class Progress
{
    /** Added to the time of the next line when the measured round starts: beyond any run, and no overflow. */
    private static final long SILENCE_NANOS = Long.MAX_VALUE / 2;

    private final String label;
    private final int total;
    private final boolean quiet;
    /** What each round adds to the time of the next line: nothing, and {@link #SILENCE_NANOS} for the measured round. */
    private final long[] holdNanos;
    private final long intervalNanos;
    private final long start = System.nanoTime();
    private long nextPrint;

    /** {@code rounds}: how many rounds the loop has, the last of them the measured one. */
    Progress(final String label, final int total, final boolean quiet, final int rounds)
    {
        this(label, total, quiet, rounds, 1_000_000_000L);
    }

    Progress(final String label, final int total, final boolean quiet, final int rounds, final long intervalNanos)
    {
        this.intervalNanos = intervalNanos;
        nextPrint = start + intervalNanos;
        this.label = label;
        this.total = total;
        this.quiet = quiet;
        holdNanos = new long[rounds];
        holdNanos[rounds - 1] = SILENCE_NANOS;
    }

    /** At each round boundary, with the index of the round that starts. */
    void startRound(final int round)
    {
        nextPrint += holdNanos[round];
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
        nextPrint = now + intervalNanos;
        print(done, now);
    }

    /** The last line, once the measured messages are done. */
    void finish()
    {
        if (!quiet)
        {
            print(total, System.nanoTime());
        }
    }

    private void print(final int done, final long now)
    {
        System.err.printf("  %s: %,d / %,d messages, %,.0f msg/s%n", label, done, total, done * 1e9 / (now - start));
    }
}
