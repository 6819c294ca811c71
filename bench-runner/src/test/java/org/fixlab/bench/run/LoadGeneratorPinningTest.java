package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

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
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(serverCpu, allowed, "unpinned"))
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
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(-1, allowed, "unpinned"))
            {
                assertEquals(allowed.nextSetBit(0), LoadGeneratorPinning.pinnedCpu());
            }
            assertEquals(-1, LoadGeneratorPinning.pinnedCpu());
        });
    }

    @Test
    void keepsAnUnpinnedServerThreadOffTheCpuTheLoadGeneratorWillTake()
    {
        onFreshThread(allowed ->
        {
            final int loadGenerator = allowed.nextSetBit(0);
            final BitSet rest = (BitSet)allowed.clone();
            rest.clear(loadGenerator);
            try (LoadGeneratorPinning server = LoadGeneratorPinning.keepServerThreadOff("unpinned"))
            {
                assertEquals(rest, Affinity.getAffinity());
                assertEquals("kept off CPU " + loadGenerator + " (the load generator's) by the runner; unpinned by the product",
                    server.placement());
                // what the server reports at the handshake, and where the client's load generator then goes
                final int serverCpu = LoadGeneratorPinning.pinnedCpu();
                assertEquals(rest.cardinality() == 1 ? rest.nextSetBit(0) : -1, serverCpu);
                final AtomicInteger clientCpu = new AtomicInteger(-2);
                final Thread client = new Thread(() ->
                {
                    Affinity.setAffinity(allowed); // the client's process may run on every CPU
                    try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(serverCpu, allowed, "unpinned"))
                    {
                        clientCpu.set(LoadGeneratorPinning.pinnedCpu());
                    }
                }, "load-generator");
                client.start();
                client.join();
                assertEquals(loadGenerator, clientCpu.get(), "each side has a CPU of its own");
            }
            assertEquals(allowed, Affinity.getAffinity(), "the thread has its CPUs back");
        });
    }

    @Test
    void leavesAServerThreadThatTheProductPinned()
    {
        assertLeavesTheProductsPin(LoadGeneratorPinning::keepServerThreadOff);
    }

    @Test
    void leavesAThreadThatTheProductPinned()
    {
        assertLeavesTheProductsPin(placement -> LoadGeneratorPinning.pin(-1, null, placement));
    }

    @Test
    void movesAThreadTheProductPinnedToTheServersOnlyCpuForTheRunOnly()
    {
        onFreshThread(allowed ->
        {
            final int serverCpu = allowed.length() - 1; // where a server kept off the lowest CPU runs, on 2 CPUs
            Affinity.setAffinity(serverCpu); // the client's product took the same CPU
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(serverCpu, allowed, "pinned to CPU " + serverCpu))
            {
                final int cpu = allowed.nextSetBit(0);
                assertEquals(cpu, LoadGeneratorPinning.pinnedCpu());
                assertEquals("pinned to CPU " + cpu + " by the runner (the load generator, moved off CPU " + serverCpu
                    + ", the server thread's only CPU; pinned to CPU " + serverCpu + " by the product)", pinning.placement());
            }
            assertEquals(serverCpu, LoadGeneratorPinning.pinnedCpu(), "the product's pin is back after the run");
        });
    }

    @Test
    void leavesAThreadTheProductPinnedBesideTheServer()
    {
        onFreshThread(allowed ->
        {
            final int productCpu = allowed.nextSetBit(0);
            final int serverCpu = allowed.length() - 1;
            Affinity.setAffinity(productCpu);
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(serverCpu, allowed, "pinned to CPU " + productCpu))
            {
                assertEquals("pinned to CPU " + productCpu, pinning.placement());
                assertEquals(productCpu, LoadGeneratorPinning.pinnedCpu());
            }
        });
    }

    @Test
    void leavesTheProductsPinOnTheServersCpuWhenTheRunnersCpusAreUnknown()
    {
        onFreshThread(allowed ->
        {
            final int serverCpu = allowed.length() - 1;
            Affinity.setAffinity(serverCpu);
            try (LoadGeneratorPinning pinning = LoadGeneratorPinning.pin(serverCpu, null, "pinned to CPU " + serverCpu))
            {
                assertEquals("pinned to CPU " + serverCpu, pinning.placement());
                assertEquals(serverCpu, LoadGeneratorPinning.pinnedCpu());
            }
        });
    }

    /** A thread the product pinned keeps its pin and the product's placement, while placed and after. */
    private static void assertLeavesTheProductsPin(final Function<String, LoadGeneratorPinning> place)
    {
        onFreshThread(allowed ->
        {
            final int productCpu = allowed.length() - 1;
            Affinity.setAffinity(productCpu);
            try (LoadGeneratorPinning pinning = place.apply("pinned to CPU " + productCpu))
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
        void run(BitSet allowed) throws Exception;
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
