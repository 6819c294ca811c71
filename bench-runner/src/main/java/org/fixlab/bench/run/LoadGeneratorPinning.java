package org.fixlab.bench.run;

import java.util.BitSet;

import net.openhft.affinity.Affinity;

/**
 * Gives the client's benchmark thread, the load generator, a CPU of its own for a run when client and server share a
 * host and the client's product left that thread unpinned; {@link #close} gives the thread back its CPUs.
 *
 * <p>Why: the load generator spins on the clock between paced orders and on back-pressure in a stream, so its CPU is
 * never idle. A server that sleeps when it has nothing to do (fixlab {@code balanced}'s backoff, QuickFIX/J's and
 * Artio's threads) leaves its CPU idle between orders, and the scheduler puts the spinning load generator there: the
 * server then waits for it to use up its time slice. A scheduler trace of paced {@code balanced} round trips on the
 * 2-vCPU VM found the server runnable behind the load generator on one CPU for 3.6-3.7 ms at a time, half of the
 * run's orders over 1 ms; pinned, the paced p99 of five runs alternating with five unpinned ones had a median of
 * 192 us against 1,795 us. The server's side keeps an unpinned server thread off that CPU in turn
 * ({@link #keepServerThreadOff}). On two hosts, or on one CPU, nothing is pinned.
 */
public final class LoadGeneratorPinning implements AutoCloseable
{
    private final String placement;
    /** The thread's CPUs before it was pinned, or null if it was not. */
    private final BitSet before;

    private LoadGeneratorPinning(final String placement, final BitSet before)
    {
        this.placement = placement;
        this.before = before;
    }

    /** Leaves the thread where the product put it. */
    public static LoadGeneratorPinning none(final String productPlacement)
    {
        return new LoadGeneratorPinning(productPlacement, null);
    }

    /**
     * Pins the calling thread, unless it may run on one CPU only already, to the lowest CPU it may run on other than
     * {@code serverCpu} (the server thread's CPU, or -1 if unpinned). Where the product pinned the thread to
     * {@code serverCpu}, the only CPU the server's thread may run on, moves it to the lowest other CPU of
     * {@code runnerCpus} (the CPUs the thread had before the product started; null: none known).
     *
     * <p>Why the move: with different properties at each end, a client whose product pins its thread (fixlab's
     * {@code cpuAffinity=true} takes the last CPU no other process has locked) beside a server whose product does not
     * (which the runner keeps off the lowest CPU, so on 2 CPUs confines to the other) put both busy threads on one CPU.
     * fixlab streams with a {@code balanced} server and an {@code optimized} client read 1.28-1.99M orders a second
     * that way (6 runs), against 2.25-4.29M with the client's affinity off (5 runs) and 3.34-4.15M moved (3 runs; 2
     * CPUs, 2026-12-02); nothing in the run said so but the two placements in its manifest.
     */
    public static LoadGeneratorPinning pin(final int serverCpu, final BitSet runnerCpus, final String productPlacement)
    {
        try
        {
            final BitSet allowed = Affinity.getAffinity();
            if (allowed.cardinality() >= 2)
            {
                return pinOffTheServersCpu(allowed, serverCpu, allowed, "the load generator; " + productPlacement
                    + " by the product", productPlacement);
            }
            if (runnerCpus != null && serverCpu >= 0 && allowed.get(serverCpu))
            {
                return pinOffTheServersCpu(runnerCpus, serverCpu, allowed, "the load generator, moved off CPU " + serverCpu
                    + ", the server thread's only CPU; " + productPlacement + " by the product", productPlacement);
            }
            return none(productPlacement); // pinned by the product elsewhere, or a host of one CPU
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return none(productPlacement);
        }
    }

    /**
     * Pins the calling thread to the lowest CPU of {@code cpus} other than {@code serverCpu}, saying {@code why} in its
     * placement; the thread gets {@code before} back when closed, or at once where there is no such CPU or the pin
     * does not take.
     */
    private static LoadGeneratorPinning pinOffTheServersCpu(final BitSet cpus, final int serverCpu, final BitSet before,
        final String why, final String productPlacement)
    {
        final BitSet choice = (BitSet)cpus.clone();
        if (serverCpu >= 0)
        {
            choice.clear(serverCpu);
        }
        final int cpu = choice.nextSetBit(0);
        if (cpu >= 0 && CoreToCoreProbe.pin(cpu))
        {
            return new LoadGeneratorPinning("pinned to CPU " + cpu + " by the runner (" + why + ")", before);
        }
        Affinity.setAffinity(before);
        return none(productPlacement);
    }

    /**
     * On the server's side of one host: keeps the calling thread (the server's benchmark thread), when the product left
     * it unpinned, off the CPU the client's load generator will take (the lowest one, by {@link #pin} with an unpinned
     * server), so that each side has a CPU of its own. {@link #placement} then says so; {@link #close} gives the
     * thread back its CPUs.
     *
     * <p>Why: pinning the load generator alone left the server's thread free to follow it. A scheduler trace of a paced
     * {@code balanced} run found the server's thread on the load generator's CPU for 446 of its 1,075 times on a CPU:
     * while the JIT compiler threads of both JVMs kept the other CPU busy, the scheduler moved it there, and it then
     * waited 429 ms of the run behind the spinning load generator. Paced {@code balanced} runs alternating with and
     * without this, 10 pairs, nothing else running: p99 median 211 -> 168 us, lower in 8 of 10 pairs, the worst
     * 1,572 -> 923 us.
     */
    public static LoadGeneratorPinning keepServerThreadOff(final String productPlacement)
    {
        try
        {
            final BitSet allowed = Affinity.getAffinity();
            if (allowed.cardinality() < 2)
            {
                return none(productPlacement); // pinned by the product, or a host of one CPU
            }
            final int loadGenerator = allowed.nextSetBit(0);
            final BitSet rest = (BitSet)allowed.clone();
            rest.clear(loadGenerator);
            if (!CoreToCoreProbe.runOnlyOn(rest))
            {
                Affinity.setAffinity(allowed);
                return none(productPlacement);
            }
            return new LoadGeneratorPinning("kept off CPU " + loadGenerator + " (the load generator's) by the runner; "
                + productPlacement + " by the product", allowed);
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return none(productPlacement);
        }
    }

    /** The CPUs the calling thread may run on, or null where Affinity cannot tell. */
    public static BitSet cpusOfThisThread()
    {
        try
        {
            return Affinity.getAffinity();
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null;
        }
    }

    /** The only CPU the calling thread may run on, or -1 when it may run on more (or Affinity cannot tell). */
    public static int pinnedCpu()
    {
        final BitSet allowed = cpusOfThisThread();
        return allowed != null && allowed.cardinality() == 1 ? allowed.nextSetBit(0) : -1;
    }

    /** Where the benchmark thread ran, for the manifest's {@code configuration.client_thread}. */
    public String placement()
    {
        return placement;
    }

    /** Gives the thread back the CPUs it had; call it on the thread that was pinned. */
    @Override
    public void close()
    {
        if (before != null)
        {
            Affinity.setAffinity(before);
        }
    }
}
