package org.fixlab.engine.store;

/** When a persistent store forces its writes to the device, per {@link SyncPolicy}. */
final class SyncSchedule
{
    private final SyncPolicy policy;
    private final long intervalNanos;
    private long lastForceNanos;
    private boolean dirty;

    SyncSchedule(final SyncPolicy policy, final long intervalNanos)
    {
        if (policy == SyncPolicy.INTERVAL && intervalNanos <= 0)
        {
            throw new IllegalArgumentException("SyncPolicy.INTERVAL needs a positive sync interval, got " + intervalNanos + " ns");
        }
        this.policy = policy;
        this.intervalNanos = intervalNanos;
    }

    SyncPolicy policy()
    {
        return policy;
    }

    /** Records a write; returns whether the store must force it now. */
    boolean onWrite()
    {
        dirty = true;
        return policy == SyncPolicy.EVERY_MESSAGE;
    }

    /** Whether {@link MessageStore#flush(long)} at {@code nowNanos} must force. */
    boolean isDue(final long nowNanos)
    {
        return dirty && policy == SyncPolicy.INTERVAL && nowNanos - lastForceNanos >= intervalNanos;
    }

    /** Whether closing must force what is not durable yet (an orderly shutdown keeps the policy's promise). */
    boolean isDirty()
    {
        return dirty && policy != SyncPolicy.NONE;
    }

    void onForced(final long nowNanos)
    {
        dirty = false;
        lastForceNanos = nowNanos;
    }
}
