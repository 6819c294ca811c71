package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReference;

import net.openhft.affinity.Affinity;
import org.junit.jupiter.api.Test;

/** On this machine's real CPUs, each case on a thread of its own, which it pins. */
class LoadGeneratorPinningTest
{
    @Test
    void pinsTheLoadGeneratorOffTheServersCpuForTheRunOnly()
    {
        onFreshThread(allowed ->
        {
            final int serverCpu = allowed.nextSetBit(0); // the lowest: the load generator must take another
            final BitSet others = (BitSet)allowed.clone();
            others.clear(serverCpu);
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(serverCpu, "unpinned"))
            {
                final int cpu = others.nextSetBit(0);
                assertEquals(cpu, LoadGeneratorPinning.pinnedCpu());
                assertEquals("pinned to CPU " + cpu + " by the runner (the load generator; unpinned by the product)",
                    pinning.placement());
            }
            assertEquals(allowed, Affinity.getAffinity(), "the thread has its CPUs back");
        });
    }

    @Test
    void takesTheLowestCpuBesideAnUnpinnedServer()
    {
        onFreshThread(allowed ->
        {
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(-1, "unpinned"))
            {
                assertEquals(allowed.nextSetBit(0), LoadGeneratorPinning.pinnedCpu());
            }
            assertEquals(-1, LoadGeneratorPinning.pinnedCpu());
        });
    }

    @Test
    void leavesAThreadThatTheProductPinned()
    {
        onFreshThread(allowed ->
        {
            final int productCpu = allowed.length() - 1;
            Affinity.setAffinity(productCpu);
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(-1, "pinned to CPU " + productCpu))
            {
                assertEquals("pinned to CPU " + productCpu, pinning.placement());
                assertEquals(productCpu, LoadGeneratorPinning.pinnedCpu());
            }
            assertEquals(productCpu, LoadGeneratorPinning.pinnedCpu(), "closing leaves the product's pin alone");
        });
    }

    @Test
    void leavesTheThreadAloneOnTwoHosts()
    {
        onFreshThread(allowed ->
        {
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.none("unpinned"))
            {
                assertEquals("unpinned", pinning.placement());
                assertEquals(allowed, Affinity.getAffinity());
            }
        });
    }

    private interface PinningCase
    {
        void run(BitSet allowed);
    }

    /** Runs the case on a new thread, so that no pin it leaves behind reaches the test runner's threads. */
    private static void onFreshThread(final PinningCase pinningCase)
    {
        final BitSet allowed = Affinity.getAffinity();
        assumeTrue(allowed.cardinality() >= 2, "needs two CPUs");
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                pinningCase.run(Affinity.getAffinity());
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        }, "load-generator-pinning-test");
        thread.start();
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
        if (failure.get() != null)
        {
            throw new AssertionError(failure.get());
        }
        assertTrue(Affinity.getAffinity().cardinality() >= 2, "the test runner's thread is not pinned");
    }
}
