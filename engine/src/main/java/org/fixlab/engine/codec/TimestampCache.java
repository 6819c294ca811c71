package org.fixlab.engine.codec;

import java.nio.ByteBuffer;

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

    private final TimestampPrecision precision;
    private final UnsafeBuffer seconds = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
    private long cachedSecond = Long.MIN_VALUE;
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

    /** Writes the timestamp at {@code offset}; returns its length (17, or 18 plus the precision's fraction digits). */
    public int encode(final MutableDirectBuffer out, final int offset, final long epochNanos)
    {
        final long second = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        if (second != cachedSecond)
        {
            UtcTimestamps.encode(seconds, 0, second * NANOS_PER_SECOND, TimestampPrecision.SECONDS);
            cachedSecond = second;
        }
        out.putBytes(offset, seconds, 0, 17);
        final int digits = precision.fractionDigits();
        if (digits == 0)
        {
            return 17;
        }
        out.putByte(offset + 17, (byte)'.');
        Ascii.putPadded(out, offset + 18, (int)(Math.floorMod(epochNanos, NANOS_PER_SECOND) / fractionDivisor), digits);
        return 18 + digits;
    }
}
