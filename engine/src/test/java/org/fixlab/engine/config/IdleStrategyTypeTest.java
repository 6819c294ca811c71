package org.fixlab.engine.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.engine.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdleStrategyTypeTest
{
    /**
     * The backoff strategy stays on the CPU (spinning, then yielding) for 200 idle duty cycles before it parks: a
     * shorter phase than a park's wake-up let two engines in conversation lock into round trips of two wake-ups
     * each (see {@link IdleStrategyType#BACKOFF_SPINS}). A park is seen without timing it: the thread holds a permit
     * before each idle call, a park takes it, and a check after the call finds it gone.
     */
    @Test
    void backoffSpinsAndYieldsForTwoHundredIdleCyclesBeforeItsFirstPark()
    {
        final IdleStrategy backoff = IdleStrategyType.BACKOFF.create();
        assertEquals(200, IdleStrategyType.BACKOFF_SPINS + IdleStrategyType.BACKOFF_YIELDS);
        final int firstPark = firstParkingCall(backoff, 300);
        assertTrue(firstPark > IdleStrategyType.BACKOFF_SPINS + IdleStrategyType.BACKOFF_YIELDS,
            "parked at idle call " + firstPark);
        assertTrue(firstPark <= IdleStrategyType.BACKOFF_SPINS + IdleStrategyType.BACKOFF_YIELDS + 3,
            "still not parked at idle call " + firstPark);

        backoff.idle(1); // work found: the count starts again
        assertEquals(firstPark, firstParkingCall(backoff, 300), "after work, the same phase again");
    }

    /**
     * A strategy from create() has been through its states once: its first spin, yield, park or sleep in a JVM, which
     * allocates, is not its user's. Each type in a JVM of its own, where nothing had idled before (in this one, JUnit's
     * threads have parked already). Fails with backoff (the first park) when create() does not take that first pass.
     */
    @ParameterizedTest
    @EnumSource(IdleStrategyType.class)
    void aNewStrategyAllocatesNothingThroughEveryState(final IdleStrategyType type) throws IOException, InterruptedException
    {
        final Process child = new ProcessBuilder(ChildJvm.command("-Xmx64m", "-cp", System.getProperty("java.class.path"),
            FirstIdlePass.class.getName(), type.key()))
            .redirectErrorStream(true)
            .start();
        final String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM ended");
        assertEquals(0, child.exitValue(), output);
        assertEquals("0", output, type.key() + ": bytes allocated going through every state of a new strategy");
    }

    /** The number (from 1) of the first of up to {@code calls} idle calls without work that parked. */
    private static int firstParkingCall(final IdleStrategy strategy, final int calls)
    {
        for (int call = 1; call <= calls; call++)
        {
            LockSupport.unpark(Thread.currentThread()); // a permit: a park in idle() returns at once, taking it
            strategy.idle(0);
            if (!permitLeft())
            {
                return call;
            }
        }
        return Integer.MAX_VALUE;
    }

    /**
     * Whether the thread still holds its permit: a park then returns at once. Without one it waits out the timeout,
     * 100 ms; half of that would take a thread preempted on a machine as busy as a test run ever makes it. Only the
     * first park of each phase waits: about 0.2 s in all.
     */
    private static boolean permitLeft()
    {
        final long start = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        return System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(50);
    }
}
