package org.fixlab.engine.config;

import java.lang.management.ManagementFactory;

import org.agrona.concurrent.IdleStrategy;

/**
 * A child JVM's main for {@link IdleStrategyTypeTest}: prints the bytes a thread allocated while a strategy from
 * {@link IdleStrategyType#create()} went through every state twice over, in a JVM where nothing had idled before. The
 * strategy is made on the main thread and used on another, as the engine makes its thread's.
 */
public final class FirstIdlePass
{
    private FirstIdlePass()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.getCurrentThreadAllocatedBytes(); // links the call before the readings that count
        final IdleStrategy idle = IdleStrategyType.of(args[0]).create();
        final long[] allocated = new long[1];
        final Thread user = new Thread(() ->
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int cycle = 0; cycle < 2 * IdleStrategyType.BACKOFF_FIRST_PARK_CALL; cycle++)
            {
                idle.idle();
            }
            allocated[0] = threads.getCurrentThreadAllocatedBytes() - before;
        });
        user.start();
        user.join();
        System.out.println(allocated[0]);
    }
}
