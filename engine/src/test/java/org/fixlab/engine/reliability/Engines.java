package org.fixlab.engine.reliability;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.fixlab.engine.FixEngine;

/** Driving engines from the test thread: one duty cycle each, and polling with a deadline instead of sleeping. */
final class Engines
{
    private Engines()
    {
    }

    /** One duty cycle of each engine; a short pause when none had work, so two CPUs stay shared. */
    static void pump(final FixEngine... engines)
    {
        int work = 0;
        for (final FixEngine engine : engines)
        {
            work += engine.poll();
        }
        if (work == 0)
        {
            LockSupport.parkNanos(20_000);
        }
    }

    static void pollUntil(final BooleanSupplier condition, final int seconds, final Supplier<String> what, final FixEngine... engines)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                fail("timed out after " + seconds + " s: " + what.get());
            }
            pump(engines);
        }
    }
}
