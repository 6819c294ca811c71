package org.fixlab.engine.transport;

import net.openhft.affinity.AffinityLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins the calling thread to a CPU with OpenHFT Affinity. Where pinning is impossible (a container
 * without the CPUs, no native support, every CPU taken) it logs one line and the thread runs unpinned:
 * a result taken that way says so in its configuration, it never fails.
 */
public final class CpuPinning implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(CpuPinning.class);

    private final AffinityLock lock;
    private final String description;

    private CpuPinning(final AffinityLock lock, final String description)
    {
        this.lock = lock;
        this.description = description;
    }

    /** @param cpu the CPU to take, or -1 for the last free one. */
    public static CpuPinning pin(final int cpu)
    {
        try
        {
            final AffinityLock lock = cpu >= 0 ? AffinityLock.acquireLock(cpu) : AffinityLock.acquireLock();
            if (lock.isAllocated() && lock.cpuId() >= 0)
            {
                return new CpuPinning(lock, "pinned to CPU " + lock.cpuId());
            }
            lock.release();
            LOG.warn("CPU affinity unavailable (no free CPU could be reserved); running unpinned");
            return new CpuPinning(null, "unpinned (no free CPU)");
        }
        catch (final Throwable ex)
        {
            LOG.warn("CPU affinity unavailable ({}); running unpinned", ex.toString());
            return new CpuPinning(null, "unpinned (" + ex.getClass().getSimpleName() + ")");
        }
    }

    public static CpuPinning none()
    {
        return new CpuPinning(null, "unpinned (affinity off)");
    }

    public boolean isPinned()
    {
        return lock != null;
    }

    public String description()
    {
        return description;
    }

    @Override
    public void close()
    {
        if (lock != null)
        {
            lock.release();
        }
    }
}
