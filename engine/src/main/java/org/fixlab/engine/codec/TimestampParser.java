package org.fixlab.engine.codec;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes UTCTimestamps as {@link UtcTimestamps#decode} does, remembering the last second it read: the
 * messages of one session carry the same {@code YYYYMMDD-HH:MM:SS} for a whole second, so all but the
 * first of them cost two 8-byte compares, a byte compare and the fraction's digits instead of six
 * numbers, the calendar's checks and days-from-civil (the SendingTime check was an eighth of balanced's
 * receiving thread). The inverse of {@link TimestampCache}; one per decoder, used on one thread.
 */
public final class TimestampParser
{
    static
    {
        profileTheTurnOfTheSecond();
    }

    /** The 17 bytes of the remembered second, as two words and a byte; nothing is remembered until the first valid one. */
    private long firstWord;
    private long secondWord;
    private byte lastByte;
    private long secondNanos = UtcTimestamps.INVALID;

    /** Epoch nanoseconds of the timestamp, or {@link UtcTimestamps#INVALID} for anything {@link UtcTimestamps#decode} refuses. */
    public long decode(final DirectBuffer buffer, final int offset, final int length)
    {
        if (!UtcTimestamps.hasTimestampLength(buffer, offset, length))
        {
            return UtcTimestamps.INVALID;
        }
        final long first = buffer.getLong(offset);
        final long second = buffer.getLong(offset + 8);
        final byte last = buffer.getByte(offset + 16);
        // One test for a change anywhere in the second, which turns once a second. A test per part was a branch the JIT
        // could compile as never taken for the parts a short warm-up never sees change (the tens of seconds, the
        // minute): the first change after it sent the whole receive path back to the interpreter. The one test can
        // still trap when C2 profiled it for less than a second before compiling it: see profileTheTurnOfTheSecond
        final long changed = (first ^ firstWord) | (second ^ secondWord) | (last ^ lastByte);
        if (changed != 0 || secondNanos == UtcTimestamps.INVALID)
        {
            final long decoded = UtcTimestamps.secondNanos(buffer, offset);
            if (decoded == UtcTimestamps.INVALID)
            {
                return UtcTimestamps.INVALID;
            }
            firstWord = first;
            secondWord = second;
            lastByte = last;
            secondNanos = decoded;
        }
        return UtcTimestamps.plusFraction(secondNanos, buffer, offset, length);
    }

    /**
     * Decodes timestamps whose second turns every fourth call, in the interpreter, when the class is first used, so
     * that the JIT's profile has the test above taken both ways and C2 compiles it, not a trap that the next turn of
     * the second takes (as {@link TimestampCache} does for the same reason: under {@code -XX:+LogCompilation} this test
     * trapped twice, a second apart, in the receive path of a paced {@code balanced} client).
     */
    private static void profileTheTurnOfTheSecond()
    {
        final TimestampCache cache = new TimestampCache(TimestampPrecision.MILLIS);
        final UnsafeBuffer timestamps = new UnsafeBuffer(new byte[cache.length()]);
        final TimestampParser parser = new TimestampParser();
        for (int i = 0; i < TimestampCache.PROFILING_CALLS; i++)
        {
            cache.encode(timestamps, 0, TimestampCache.profilingNanos(i));
            parser.decode(timestamps, 0, cache.length());
        }
    }
}
