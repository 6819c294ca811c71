package org.fixlab.bench.fixlab;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.Options;
import org.fixlab.bench.Product;
import org.fixlab.bench.ProductConfig;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.run.ProductInfo;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.config.EngineConfiguration;

/** fixlab, the engine of this repository: configured by the engine.properties of bench-runner/etc/NAME/. */
public final class FixlabProduct implements Product
{
    @Override
    public String id()
    {
        return "fixlab";
    }

    @Override
    public String label()
    {
        return "fixlab";
    }

    @Override
    public String role()
    {
        return "subject";
    }

    @Override
    public List<String> configurations()
    {
        return List.of("balanced", "balanced-nolog", "optimized", "optimized-file", "optimized-mmap", "optimized-tls");
    }

    /**
     * The file and mapped stores only where the seed measured them (internal points); the quick profile
     * keeps the in-memory and mapped stores there. TLS in rtt-echo, beside optimized, for its cost; the
     * message log's cost (balanced against balanced-nolog) in the full profile's round trip and throughput.
     * The quick profile leaves balanced out: on 2 cores its file store and message log (a writer thread beside
     * two busy processes) were not steady within a quick run's measured second (paced latency 9.5 us in the
     * first third, 3.9 ms in the last; the stream slowed from 1.07M to 0.68M msg/s), and every quick run must be.
     */
    @Override
    public List<String> configurations(final Scenario scenario, final boolean full)
    {
        if (scenario == Scenario.RTT_ECHO)
        {
            return full ? List.of("balanced", "balanced-nolog", "optimized", "optimized-tls") : List.of("optimized", "optimized-tls");
        }
        if (scenario == Scenario.THROUGHPUT)
        {
            return full ? List.of("balanced", "balanced-nolog", "optimized") : List.of("optimized");
        }
        if (!scenario.isInternal())
        {
            return full ? List.of("balanced", "optimized") : List.of("optimized");
        }
        return full ? List.of("balanced", "optimized", "optimized-file", "optimized-mmap", "optimized-tls")
            : List.of("optimized", "optimized-mmap");
    }

    @Override
    public boolean takesPropertiesFile()
    {
        return true;
    }

    @Override
    public Map<String, Object> info()
    {
        final Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", id());
        // In a campaign of several engine versions (bin/engine-versions), the version's label and the commit its
        // engine jar was built from; otherwise this build's.
        info.put("version", System.getenv().getOrDefault("FIXLAB_ENGINE_VERSION",
            ProductInfo.mavenVersion("org.fixlab", "fixlab-engine", FixEngine.class)));
        info.put("commit", System.getenv().getOrDefault("FIXLAB_ENGINE_COMMIT", ProductInfo.gitCommit()));
        return info;
    }

    @Override
    public ProductConfig configure(final Options options)
    {
        return new Config(options.config, loadEngine(options));
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
                return withTlsFiles(EngineConfiguration.load(file), name -> readable(file.toAbsolutePath().getParent().resolve(name)));
            }
            final String resource = "/etc/" + options.config + "/engine.properties";
            try (InputStream in = FixlabProduct.class.getResourceAsStream(resource))
            {
                if (in == null)
                {
                    throw new BenchException("configuration " + options.config + ": " + resource + " is not on the classpath");
                }
                return withTlsFiles(EngineConfiguration.load(in, "bench-runner/etc/" + options.config + "/engine.properties"),
                    name -> extract("/etc/" + options.config + "/" + name));
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

    /** Where a key store named without a folder in an engine.properties is found. */
    private interface KeyStoreSource
    {
        Path find(String name) throws IOException;
    }

    /**
     * A key or trust store given as a bare file name lives beside the engine.properties (etc/optimized-tls
     * holds its test-only stores): the engine needs a file, so it gets that file's path.
     */
    private static EngineConfiguration withTlsFiles(final EngineConfiguration engine, final KeyStoreSource source) throws IOException
    {
        for (final String key : List.of("tlsKeyStore", "tlsTrustStore"))
        {
            if (!knows(engine, key))
            {
                continue; // an engine version from before TLS (a campaign may drive older versions)
            }
            final String value = engine.value(key);
            if (!value.isEmpty() && Path.of(value).getParent() == null)
            {
                engine.set(key, source.find(value).toString());
            }
        }
        return engine;
    }

    private static boolean knows(final EngineConfiguration engine, final String key)
    {
        try
        {
            engine.value(key);
            return true;
        }
        catch (final IllegalArgumentException unknownKey)
        {
            return false;
        }
    }

    private static Path readable(final Path file)
    {
        if (!Files.isReadable(file))
        {
            throw new BenchException("key store " + file + ": no such readable file");
        }
        return file;
    }

    /** A classpath resource as a temporary file, deleted when the process exits. */
    private static Path extract(final String resource) throws IOException
    {
        try (InputStream in = FixlabProduct.class.getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new BenchException("key store " + resource + " is not on the classpath");
            }
            final Path file = Files.createTempFile("fixlab-bench-", ".p12");
            file.toFile().deleteOnExit();
            Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return file;
        }
    }

    /** One engine configuration; both peers poll the engine on the benchmark thread with its idle strategy. */
    record Config(String name, EngineConfiguration engine) implements ProductConfig
    {
        @Override
        public ClientPeer client(final Scenario scenario, final Replies replies)
        {
            return new FixlabClientPeer(engine, scenario, replies);
        }

        @Override
        public ServerPeer server(final Scenario scenario, final ServerRecorder recorder)
        {
            return new FixlabServerPeer(engine, scenario, recorder);
        }

        @Override
        public IdleStrategy serverIdle()
        {
            return engine.idleStrategy().create();
        }

        @Override
        public Map<String, Object> manifestBlock(final Map<String, Object> sockets)
        {
            final Map<String, Object> block = ProductConfig.contractBlock(name, !engine.bool("tcpNoDelay"), engine.bool("cpuAffinity"),
                ProductConfig.validation(engine.bool("validateChecksum"), engine.bool("validateGarbledMessage"),
                    engine.bool("validateDictionary")),
                EngineApi.storeType(engine), "memory", engine.idleStrategy().key(),
                Map.of("send", engine.integer("socketSendBufferSize"), "receive", engine.integer("socketReceiveBufferSize")),
                "one benchmark thread per process calls engine.poll(); no engine thread");
            final Map<String, String> effective = new LinkedHashMap<>(engine.effectiveValues());
            effective.put("storeDirectory", "(a temporary directory per process)");
            if (effective.containsKey("messageLogDirectory"))
            {
                effective.put("messageLogDirectory", "(the store's temporary directory)");
            }
            block.put("engine", effective);
            return block;
        }
    }
}
