package org.fixlab.bench.server;

/**
 * One product on the server side: listens, answers (echo), counts (stream) or routes (conversion)
 * into a {@link ServerRecorder}. Products with their own I/O threads do nothing in {@link #poll()}.
 */
public interface ServerPeer extends AutoCloseable
{
    /** Binds the FIX port or throws a BenchException naming the port. */
    void listen(String bind, int port);

    /** One duty cycle on the server's main thread; returns the work done. */
    int poll();

    String threadPlacement();

    /**
     * Whether {@link #poll()} does the product's own receiving and answering, so that this thread's stalls are the
     * product's (fixlab's engine, the raw socket): not where the product has I/O threads of its own.
     */
    default boolean answersOnThisThread()
    {
        return false;
    }

    /** Socket buffer sizes actually in effect, when the product lets us read them. */
    default java.util.Map<String, Object> socketBuffers()
    {
        return java.util.Map.of("send", 0, "receive", 0);
    }

    @Override
    void close();
}
