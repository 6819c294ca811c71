package org.fixlab.engine.session;

import java.util.concurrent.TimeUnit;

/**
 * When a logged-on session owes the peer a Heartbeat, when it asks with a TestRequest whether the peer
 * is still there, and when it gives up, on the loop's clock (QuickFIX/J's timings: TestRequest after
 * (1 + testRequestDelayMultiplier) x HeartBtInt of silence, disconnect after
 * (1 + heartbeatTimeoutMultiplier) x HeartBtInt). Thresholds are derived once per logon, not per duty
 * cycle; the session says what it heard and sent, and asks {@link #due} what to do.
 */
final class HeartbeatSchedule
{
    enum Due
    {
        NOTHING,
        HEARTBEAT,
        TEST_REQUEST,
        TIMEOUT
    }

    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final double testRequestDelayMultiplier;
    private final double heartbeatTimeoutMultiplier;
    private long intervalNanos;
    private long testRequestDelayNanos;
    private long timeoutNanos;
    private long lastReceivedNanos;
    private boolean testRequestOutstanding;

    HeartbeatSchedule(final double testRequestDelayMultiplier, final double heartbeatTimeoutMultiplier)
    {
        this.testRequestDelayMultiplier = testRequestDelayMultiplier;
        this.heartbeatTimeoutMultiplier = heartbeatTimeoutMultiplier;
    }

    /** HeartBtInt as agreed at logon; 0 turns heartbeats and the timeout off. */
    void interval(final int seconds)
    {
        intervalNanos = seconds * NANOS_PER_SECOND;
        testRequestDelayNanos = (long)(intervalNanos * (1 + testRequestDelayMultiplier));
        timeoutNanos = (long)(intervalNanos * (1 + heartbeatTimeoutMultiplier));
    }

    /** A new connection: silence counts from now. */
    void connected(final long nowNanos)
    {
        lastReceivedNanos = nowNanos;
        testRequestOutstanding = false;
    }

    /** Proof the peer is alive without a message processed (one held back by back-pressure). */
    void heardFrom(final long nowNanos)
    {
        lastReceivedNanos = nowNanos;
    }

    /** A message passed the session's checks: the peer answered whatever we asked. */
    void received(final long nowNanos)
    {
        lastReceivedNanos = nowNanos;
        testRequestOutstanding = false;
    }

    void testRequestSent()
    {
        testRequestOutstanding = true;
    }

    long silenceNanos(final long nowNanos)
    {
        return nowNanos - lastReceivedNanos;
    }

    /** What the session owes now; a TestRequest is asked for once until the peer is heard from. */
    Due due(final long nowNanos, final long lastSentNanos)
    {
        if (intervalNanos <= 0)
        {
            return Due.NOTHING;
        }
        final long silence = nowNanos - lastReceivedNanos;
        if (silence >= timeoutNanos)
        {
            return Due.TIMEOUT;
        }
        if (!testRequestOutstanding && silence >= testRequestDelayNanos)
        {
            return Due.TEST_REQUEST;
        }
        return nowNanos - lastSentNanos >= intervalNanos ? Due.HEARTBEAT : Due.NOTHING;
    }
}
