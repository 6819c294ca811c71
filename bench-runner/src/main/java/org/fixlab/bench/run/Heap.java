package org.fixlab.bench.run;

/**
 * What the harness does to the heap before the first order of a run, on both sides.
 *
 * <p>The harness keeps its samples in arrays sized for the whole run (a few longs per order: 5-25 MB in a round-trip
 * run), allocated, with the product's sessions and buffers, just before the run starts. Left in the young generation,
 * they were copied by every young collection until they aged out of it: a product that allocates (the JDK's TLS, QuickFIX/J)
 * paid for the harness's data in its pauses. In paced `optimized-tls` runs (ParallelGC, 1 GiB heap, a young collection
 * every 2 s at 3.5 KB a round trip) the first young collection on each side moved 17-24 MB and stopped that process for
 * 32-71 ms, the later ones for 15-30 ms; with nothing of the harness's left to move (-XX:MaxTenuringThreshold=0) the ones
 * after the first took 0.5-5 ms. One full collection before the first order puts what is live then in the old
 * generation, where a young collection does not copy it, so a product's pauses are its own.
 */
public final class Heap
{
    private Heap()
    {
    }

    /** One full collection: the harness's arrays and the product's long-lived state go to the old generation. */
    public static void promoteLongLived()
    {
        System.gc();
    }
}
