package org.fixlab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fixlab.engine.config.EngineConfiguration;

/**
 * A product's configuration resolved from its name (or an engine.properties file), with the facts
 * the manifest's configuration block states: for fixlab the engine's effective values, for
 * QuickFIX/J and the raw socket the equivalent settings they are run with.
 */
public final class ProductConfig
{
    public final Product product;
    public final String name;
    /** fixlab only. */
    public final EngineConfiguration engine;
    /** QuickFIX/J: FileStoreFactory (persistent) rather than MemoryStoreFactory. */
    public final boolean qfjFileStore;
    /** QuickFIX/J: validate against the FIX44/FIX42 data dictionary. */
    public final boolean qfjDictionary;

    private ProductConfig(final Product product, final String name, final EngineConfiguration engine, final boolean qfjFileStore,
        final boolean qfjDictionary)
    {
        this.product = product;
        this.name = name;
        this.engine = engine;
        this.qfjFileStore = qfjFileStore;
        this.qfjDictionary = qfjDictionary;
    }

    public static ProductConfig resolve(final Options options)
    {
        switch (options.product)
        {
            case FIXLAB:
                return new ProductConfig(options.product, options.config, loadEngine(options), false, false);
            case QUICKFIXJ:
                final boolean optimized = options.config.equals("optimized");
                return new ProductConfig(options.product, options.config, null, !optimized, !optimized);
            default:
                return new ProductConfig(options.product, options.config, null, false, false);
        }
    }

    private static EngineConfiguration loadEngine(final Options options)
    {
        try
        {
            if (options.properties != null)
            {
                final Path file = Path.of(options.properties);
                if (!Files.isReadable(file))
                {
                    throw new BenchException("--properties " + file + ": no such readable file");
                }
                return EngineConfiguration.load(file);
            }
            final String resource = "/etc/" + options.config + "/engine.properties";
            try (InputStream in = ProductConfig.class.getResourceAsStream(resource))
            {
                if (in == null)
                {
                    throw new BenchException("configuration " + options.config + ": " + resource + " is not on the classpath");
                }
                return EngineConfiguration.load(in, "bench-runner/etc/" + options.config + "/engine.properties");
            }
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot read the engine configuration: " + ex.getMessage(), ex);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BenchException("engine configuration: " + ex.getMessage(), ex);
        }
    }

    /** The configuration block of the manifest (data contract v1 keys first, then the details). */
    public Map<String, Object> manifestBlock(final String clientPlacement, final String serverPlacement, final Map<String, Object> sockets)
    {
        final Map<String, Object> block = new LinkedHashMap<>();
        block.put("name", name);
        switch (product)
        {
            case FIXLAB -> {
                block.put("nagle", !engine.bool("tcpNoDelay"));
                block.put("affinity", engine.bool("cpuAffinity"));
                block.put("validation", validation(engine.bool("validateChecksum"), engine.bool("validateGarbledMessage"),
                    engine.bool("validateDictionary")));
                block.put("storage", engine.storeType());
                block.put("queue", "memory");
                block.put("idle_strategy", engine.idleStrategy().key());
                block.put("socket_buffers", Map.of("send", engine.integer("socketSendBufferSize"), "receive",
                    engine.integer("socketReceiveBufferSize")));
                block.put("threading", "one benchmark thread per process calls engine.poll(); no engine thread");
                final Map<String, String> effective = new LinkedHashMap<>(engine.effectiveValues());
                effective.put("storeDirectory", "(a temporary directory per process)");
                block.put("engine", effective);
            }
            case QUICKFIXJ -> {
                block.put("nagle", false);
                block.put("affinity", false);
                block.put("validation", validation(true, true, qfjDictionary));
                block.put("storage", qfjFileStore ? "file" : "memory");
                block.put("queue", "memory");
                block.put("idle_strategy", "blocking (MINA selector thread, QuickFIX/J message-processor queue)");
                block.put("socket_buffers", sockets);
                block.put("threading", "SocketInitiator/SocketAcceptor with SingleThreadedEventHandlingStrategy");
                block.put("quickfixj", qfjSettingsFacts());
            }
            default -> {
                block.put("nagle", false);
                block.put("affinity", false);
                block.put("validation", validation(false, false, false));
                block.put("storage", "none");
                block.put("queue", "none");
                block.put("idle_strategy", "busy-spin");
                block.put("socket_buffers", sockets);
                block.put("threading", "one thread per process, non-blocking java.nio SocketChannel read in a spin loop");
            }
        }
        block.put("client_thread", clientPlacement);
        block.put("server_thread", serverPlacement);
        return block;
    }

    public Map<String, String> qfjSettingsFacts()
    {
        final Map<String, String> facts = new LinkedHashMap<>();
        facts.put("MessageStoreFactory", qfjFileStore ? "FileStoreFactory" : "MemoryStoreFactory");
        facts.put("UseDataDictionary", qfjDictionary ? "Y" : "N");
        facts.put("SocketTcpNoDelay", "Y");
        facts.put("ResetOnLogon", "Y");
        facts.put("PersistMessages", qfjFileStore ? "Y" : "N");
        facts.put("LogFactory", "ScreenLogFactory(false, false, false)");
        return facts;
    }

    private static Map<String, Object> validation(final boolean checksum, final boolean garbled, final boolean dictionary)
    {
        final Map<String, Object> v = new LinkedHashMap<>();
        v.put("checksum", checksum);
        v.put("garbled", garbled);
        v.put("dictionary", dictionary);
        return v;
    }
}
