package org.fixlab.engine.codec;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes the UTCTimestamps of a stream of messages (SendingTime, TransactTime...): the
 * {@code YYYYMMDD-HH:MM:SS} part changes once a second, so it is formatted once per second and
 * copied; only the fraction is written per message. Also the message log's line prefix.
 */
public final class TimestampCache
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Calls that give the JIT's profile of {@link #encode} both ways of its branch; see {@link #profileTheTurnOfTheSecond}. */
    static final int PROFILING_CALLS = 4_000;

    static
    {
        profileTheTurnOfTheSecond();
    }

    private final TimestampPrecision precision;
    /** The timestamp last encoded: the cached second, then '.' and the fraction when the precision has one. */
    private final byte[] lastBytes = new byte[TimestampPrecision.NANOS.length()];
    private final UnsafeBuffer seconds = new UnsafeBuffer(lastBytes, 0, 17);
    /** The byte sum (modulo 256) of the second's 17 bytes, and of the whole timestamp last encoded (to be taken modulo 256). */
    private int secondsSum;
    private int lastSum;
    /** The fraction of a second in {@link #lastBytes}, in the precision's units; -1 when it holds none yet. */
    private int lastFraction = -1;
    /** The cached second as [start, start + 1 s) in epoch nanoseconds: empty until the first timestamp. */
    private long secondStart = Long.MAX_VALUE;
    private long secondEnd = Long.MIN_VALUE;
    private final int fractionDivisor;

    public TimestampCache(final TimestampPrecision precision)
    {
        this.precision = precision;
        int divisor = 1;
        for (int i = precision.fractionDigits(); i < 9; i++)
        {
            divisor *= 10;
        }
        this.fractionDivisor = divisor;
    }

    /**
     * Encodes timestamps whose second turns every fourth call, in the interpreter, when the class is first used. Why:
     * C2 compiles a branch its profile never saw taken as a trap, and the branch that formats a new second is taken
     * once a second, so a method profiled for less than a second before C2 compiled it had that branch as a trap. Each
     * turn of the second then sent the compiled code around it, the whole duty cycle when the message log's prefix
     * or SendingTime inlined it, back to the interpreter, and C2 compiled it again (100 ms of a compiler thread for
     * {@code EventLoop.doWork}) with the branch still a trap, up to HotSpot's limit of traps at one place: under
     * {@code -XX:+LogCompilation}, a paced {@code balanced} client trapped at this branch 4.1 s and 1.1 s before its
     * end, the second inside the measured messages, whose replies then came in bursts for 180 ms while the recompile
     * shared the server's CPU. With the branch in the profile from the start, C2 compiles both ways.
     */
    private static void profileTheTurnOfTheSecond()
    {
        final TimestampCache cache = new TimestampCache(TimestampPrecision.MILLIS);
        final byte[] scratch = new byte[cache.length()];
        for (int i = 0; i < PROFILING_CALLS; i++)
        {
            cache.encode(scratch, RawBytes.ARRAY_BASE, profilingNanos(i));
        }
    }

    /** The time of profiling call {@code call}: a millisecond after the last, in a second that turns every fourth call. */
    static long profilingNanos(final int call)
    {
        return (call / 4) * NANOS_PER_SECOND + call * 1_000_000L;
    }

    /** Writes the timestamp at {@code offset}; returns its length (17, or 18 plus the precision's fraction digits). */
    public int encode(final MutableDirectBuffer out, final int offset, final long epochNanos)
    {
        out.boundsCheck(offset, length());
        return encode(out.byteArray(), out.addressOffset() + offset, epochNanos);
    }

    /** The timestamp's length in bytes: 17, or 18 plus the precision's fraction digits. */
    public int length()
    {
        return precision.length();
    }

    /** The same at an address whose room the caller checked (see {@link RawBytes}). */
    int encode(final Object array, final long address, final long epochNanos)
    {
        // two comparisons instead of a 64-bit division and a remainder per timestamp
        if (epochNanos < secondStart || epochNanos >= secondEnd)
        {
            secondStart = Math.floorDiv(epochNanos, NANOS_PER_SECOND) * NANOS_PER_SECOND;
            secondEnd = secondStart + NANOS_PER_SECOND;
            UtcTimestamps.encode(seconds, 0, secondStart, TimestampPrecision.SECONDS);
            secondsSum = Checksum.compute(seconds, 0, 17);
            lastBytes[17] = '.';
            lastSum = secondsSum;
            lastFraction = -1;
        }
        // The fraction is formatted only when it changes: the messages of one read share their time, and a stream
        // sends hundreds in a millisecond; each timestamp is then one copy of what the last one wrote.
        final int digits = precision.fractionDigits();
        if (digits > 0)
        {
            final int fraction = (int)(epochNanos - secondStart) / fractionDivisor;
            if (fraction != lastFraction)
            {
                lastFraction = fraction;
                lastSum = secondsSum + '.' + RawBytes.putDigits(lastBytes, RawBytes.ARRAY_BASE + 18, fraction, digits);
            }
        }
        final int length = precision.length();
        RawBytes.copy(lastBytes, RawBytes.ARRAY_BASE, array, address, length);
        return length;
    }

    /** The byte sum of the timestamp the last encode wrote: a CheckSum adds it without reading the bytes back. */
    public int lastSum()
    {
        return lastSum;
    }
}
