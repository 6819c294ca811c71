package org.fixlab.bench;

import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;

/**
 * A product in one configuration: makes its client and server peers, says how the benchmark thread
 * waits between duty cycles, and states the facts of the manifest's configuration block.
 */
public interface ProductConfig
{
    /** The configuration's name ("optimized", "custom" for an engine.properties file). */
    String name();

    ClientPeer client(Scenario scenario, Replies replies);

    ServerPeer server(Scenario scenario, ServerRecorder recorder);

    /** How the server's main thread waits when a duty cycle found nothing to do. */
    IdleStrategy serverIdle();

    /** How the client's benchmark thread waits for replies. */
    default IdleStrategy clientIdle()
    {
        return serverIdle();
    }

    /**
     * The configuration block of the manifest: name, nagle, affinity, validation, storage, queue,
     * idle_strategy, socket_buffers and threading (data contract v1), then the product's own details.
     * {@code sockets} are the buffer sizes the client peer measured, for products that expose them.
     */
    Map<String, Object> manifestBlock(Map<String, Object> sockets);

    /** The data contract's keys of {@link #manifestBlock}, in its order; the product adds its details after. */
    static Map<String, Object> contractBlock(final String name, final boolean nagle, final boolean affinity,
        final Map<String, Object> validation, final String storage, final String queue, final String idleStrategy,
        final Map<String, Object> sockets, final String threading)
    {
        final Map<String, Object> block = new LinkedHashMap<>();
        block.put("name", name);
        block.put("nagle", nagle);
        block.put("affinity", affinity);
        block.put("validation", validation);
        block.put("storage", storage);
        block.put("queue", queue);
        block.put("idle_strategy", idleStrategy);
        block.put("socket_buffers", sockets);
        block.put("threading", threading);
        return block;
    }

    /** The validation sub-block of {@link #manifestBlock}. */
    static Map<String, Object> validation(final boolean checksum, final boolean garbled, final boolean dictionary)
    {
        final Map<String, Object> v = new LinkedHashMap<>();
        v.put("checksum", checksum);
        v.put("garbled", garbled);
        v.put("dictionary", dictionary);
        return v;
    }
}
