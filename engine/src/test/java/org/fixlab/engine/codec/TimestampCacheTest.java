package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The cache writes what UtcTimestamps writes, and the byte sum of it, for every precision, whichever way time moves:
 * the same instant again, within a second, to the next one, back to an earlier one, across midnight and before 1970.
 */
class TimestampCacheTest
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MIDNIGHT = 1_795_651_200L * NANOS_PER_SECOND; // 2026-11-26T00:00:00Z

    @Test
    void everyTimestampIsWhatUtcTimestampsWritesWhereverTheNextOneFalls()
    {
        final SplittableRandom random = new SplittableRandom(20261126);
        for (final TimestampPrecision precision : TimestampPrecision.values())
        {
            final TimestampCache cache = new TimestampCache(precision);
            final UnsafeBuffer actual = new UnsafeBuffer(new byte[64]);
            final UnsafeBuffer expected = new UnsafeBuffer(new byte[64]);
            long nanos = MIDNIGHT - 3 * NANOS_PER_SECOND;
            for (int i = 0; i < 100_000; i++)
            {
                switch (random.nextInt(7))
                {
                    case 0 -> nanos += random.nextLong(1_000);                       // the same second, mostly
                    case 1 -> nanos += random.nextLong(NANOS_PER_SECOND);            // often the next second
                    case 2 -> nanos -= random.nextLong(2 * NANOS_PER_SECOND);        // back in time
                    case 3 -> nanos = (nanos / NANOS_PER_SECOND) * NANOS_PER_SECOND - random.nextInt(2); // a second's edge
                    case 4 -> nanos = random.nextLong(-NANOS_PER_SECOND * 86_400 * 365, MIDNIGHT * 2); // anywhere, 1969 too
                    case 5 -> nanos += 0;                                            // the same instant: the same read
                    default -> nanos += 1;
                }
                final int length = cache.encode(actual, 1, nanos);
                final int expectedLength = UtcTimestamps.encode(expected, 1, nanos, precision);
                assertEquals(expected.getStringWithoutLengthAscii(1, expectedLength), actual.getStringWithoutLengthAscii(1, length),
                    precision + " at " + nanos + " ns");
                assertEquals(Checksum.compute(expected, 1, expectedLength), cache.lastSum() & 0xFF,
                    precision + " at " + nanos + " ns: the byte sum a CheckSum adds");
            }
        }
    }
}
