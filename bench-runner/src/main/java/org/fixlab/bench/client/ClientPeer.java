package org.fixlab.bench.client;

/**
 * One product on the client side: its sessions to the server, how it sends order number
 * {@code seq}, and how its inbound work gets done. Products that run their own I/O threads
 * (QuickFIX/J) deliver replies from those threads and have nothing to do in {@link #poll()}.
 */
public interface ClientPeer extends AutoCloseable
{
    /** Connects and logs on (both sessions for conversion) or throws a BenchException naming the server. */
    void connect(String host, int port, long deadlineNanos);

    /**
     * Sends order {@code seq}: the full NewOrderSingle, or the small one of the throughput stream.
     * Returns false when back-pressured: poll, then send again.
     */
    boolean send(int seq, boolean small);

    /** Drives this product's I/O on the calling thread; returns the work done. */
    int poll();

    /** t2 of the last send: System.nanoTime() just before its bytes went to the socket (0 if unknown). */
    long lastWriteNanos();

    /** How the product's points were taken, for the manifest. */
    String timestampMethod();

    /** Description of where the benchmark thread runs ("pinned to CPU 1", "unpinned"). */
    default String threadPlacement()
    {
        return "unpinned";
    }

    /**
     * The TLS protocol and cipher suite the client's connection negotiated ("TLSv1.3 TLS_AES_256_GCM_SHA384"), read
     * after logon; null without TLS, or when the product does not say.
     */
    default String tlsSession()
    {
        return null;
    }

    /** Socket buffer sizes actually in effect, when the product lets us read them. */
    default java.util.Map<String, Object> socketBuffers()
    {
        return java.util.Map.of("send", 0, "receive", 0);
    }

    @Override
    void close();
}
