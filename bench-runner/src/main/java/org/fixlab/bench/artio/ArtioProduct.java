package org.fixlab.bench.artio;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Options;
import org.fixlab.bench.Product;
import org.fixlab.bench.ProductConfig;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.run.ProductInfo;

/**
 * Artio (Real Logic / Adaptive), the open low-latency FIX engine for the JVM. It needs Agrona 2.x and
 * Aeron while the engine here pins Agrona 1.x, so its peers live in the bench-artio module and its
 * roles run in a JVM of their own: this adapter, loaded in the runner's JVM, starts that JVM
 * ({@link #ownJvm()}) and, once there, makes the configuration by name.
 *
 * <p>Scenarios: rtt-echo, throughput and conversion through Artio's session layer; of the internal
 * points only those whose timestamps Artio's API gives honestly: internal-receive (t3 is the receive
 * timestamp Artio's framer takes at the socket read, t4 the onMessage callback) and
 * internal-send-receive (client t1 -> server onMessage). Artio writes to the socket on its framer thread
 * with no application hook, so there is no t2: internal-send and internal-receive-send are not played.
 */
public final class ArtioProduct implements Product
{
    private static final String CONFIG_CLASS = "org.fixlab.bench.artio.ArtioConfig";

    @Override
    public String id()
    {
        return "artio";
    }

    @Override
    public String label()
    {
        return "Artio";
    }

    /**
     * default: Artio's defaults, the durable archive of every message, backoff idling; optimized: as Artio's system
     * benchmarks (no archive, busy-spin); yielding: optimized with threads that yield when idle, for machines
     * without the cores busy-spinning needs.
     */
    @Override
    public List<String> configurations()
    {
        return List.of("default", "optimized", "yielding");
    }

    /**
     * Cores a machine needs before a campaign runs Artio's busy-spinning configuration: each of a run's two
     * processes spins its framer, its library poller and the benchmark thread, and Artio's system benchmarks
     * give each its own core. On the 2-core campaign machine the six spinning threads starved each other
     * (about 185 round trips a second, a median of 110 ms paced), which measures the scheduler, not Artio,
     * and one such run outlasts a whole campaign. Single runs can still ask for it with --config optimized.
     */
    static final int CORES_FOR_BUSY_SPIN = 6;

    static boolean hasCoresForBusySpin()
    {
        return Runtime.getRuntime().availableProcessors() >= CORES_FOR_BUSY_SPIN;
    }

    /**
     * With the cores for busy spinning: default and optimized (only optimized for the quick profile's internal points).
     * Without them: default and yielding (quick: the yielding round trip only), and the stream in yielding only: on the
     * 2-core campaign machine the default configuration's server took in about 8,000 orders a second (811,924 and
     * 963,809 of the 4,000,000 in the 120 s the server waits, while the client's library had accepted all of them in
     * 10 s), its threads parking between polls, so every repetition failed instead of measuring Artio; yielding
     * streamed 227,000 to 323,000 orders a second there after the full profile's 3,000,000-order warm-up (a campaign
     * of three repetitions, as the README says). A single run
     * can still ask for any configuration in any scenario it plays.
     */
    @Override
    public List<String> configurations(final Scenario scenario, final boolean full)
    {
        if (!hasCoresForBusySpin())
        {
            if (scenario == Scenario.THROUGHPUT)
            {
                return full ? List.of("yielding") : List.of();
            }
            if (!full)
            {
                // make run's budget: the round trip of the configuration that holds up here, no internal points
                // (a minute of Artio's default configuration parking its threads, and two runs of half a minute each)
                return scenario == Scenario.RTT_ECHO ? List.of("yielding") : List.of();
            }
            return List.of("default", "yielding");
        }
        return scenario.isInternal() && !full ? List.of("optimized") : List.of("default", "optimized");
    }

    /** Even its default configuration fell behind 50,000 msg/s on 2 cores (a 12 ms median from the intended send). */
    @Override
    public boolean sustainsSeedRate()
    {
        return hasCoresForBusySpin();
    }

    @Override
    public boolean plays(final Scenario scenario)
    {
        return scenario != Scenario.INTERNAL_SEND && scenario != Scenario.INTERNAL_RECEIVE_SEND;
    }

    @Override
    public Map<String, Object> info()
    {
        final Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", id());
        configClass();
        info.put("version", ProductInfo.mavenVersion("uk.co.real-logic", "artio-core", load("uk.co.real_logic.artio.engine.FixEngine")));
        info.put("commit", "maven-central");
        return info;
    }

    @Override
    public ProductConfig configure(final Options options)
    {
        try
        {
            return (ProductConfig)configClass().getConstructor(String.class).newInstance(options.config);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new BenchException("artio: cannot make configuration " + options.config + ": " + ex, ex);
        }
    }

    /**
     * The java command of Artio's JVM (its module's classpath and the flags its build uses), or nothing
     * when this JVM is already it.
     */
    @Override
    public List<String> ownJvm()
    {
        if (present())
        {
            return List.of();
        }
        final Path target = moduleTarget();
        try
        {
            final Path jar = moduleJar(target);
            final String classpath = Files.readString(target.resolve("classpath.txt")).strip();
            final String flags = Files.readString(target.resolve("classes/launch/jvm-flags.txt")).strip();
            final List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            final List<String> inherited = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
            command.addAll(inherited);
            command.addAll(flagsNotIn(inherited, flags.split("\\s+")));
            command.add("-cp");
            command.add(jar + java.io.File.pathSeparator + classpath);
            return command;
        }
        catch (final IOException ex)
        {
            throw new BenchException("artio: " + target + " is not built (" + ex.getMessage() + "); run 'make build-java' first");
        }
    }

    /**
     * Artio's build flags, less those this JVM already runs with, so that the manifest's {@code jvm_args} name each
     * once: the engine's own flags (fixlab-bench puts them first) open {@code sun.nio.ch} too. The build writes an
     * option and its value as two words ({@code --add-opens java.base/x=ALL-UNNAMED}); the JVM reports the options it
     * was given as one ({@code --add-opens=java.base/x=ALL-UNNAMED}).
     */
    static List<String> flagsNotIn(final List<String> inherited, final String[] flags)
    {
        final List<String> added = new ArrayList<>();
        for (int i = 0; i < flags.length; i++)
        {
            final boolean takesValue = flags[i].startsWith("--") && !flags[i].contains("=") && i + 1 < flags.length;
            final String asReported = takesValue ? flags[i] + "=" + flags[i + 1] : flags[i];
            if (!inherited.contains(asReported))
            {
                added.add(flags[i]);
                if (takesValue)
                {
                    added.add(flags[i + 1]);
                }
            }
            if (takesValue)
            {
                i++;
            }
        }
        return added;
    }

    /** The module's jar, whatever the project's version (sources or test jars are not built for it). */
    private static Path moduleJar(final Path target) throws IOException
    {
        try (java.util.stream.Stream<Path> files = Files.list(target))
        {
            // the newest: target/ keeps the jar of an earlier project version until a clean
            return files.filter(f -> f.getFileName().toString().matches("fixlab-bench-artio-[^-]+(-SNAPSHOT)?\\.jar"))
                .max(java.util.Comparator.comparingLong(f -> f.toFile().lastModified()))
                .orElseThrow(() -> new IOException("no fixlab-bench-artio jar in it"));
        }
    }

    private static boolean present()
    {
        try
        {
            Class.forName(CONFIG_CLASS, false, ArtioProduct.class.getClassLoader());
            return true;
        }
        catch (final ClassNotFoundException ex)
        {
            return false;
        }
    }

    private static Class<?> configClass()
    {
        return load(CONFIG_CLASS);
    }

    private static Class<?> load(final String name)
    {
        try
        {
            return Class.forName(name);
        }
        catch (final ClassNotFoundException ex)
        {
            throw new BenchException("artio: its module is not on this JVM's classpath (run it through bench-runner/bin/fixlab-bench)");
        }
    }

    /** bench-artio/target beside the runner's own build output (its jar or its classes folder). */
    private static Path moduleTarget()
    {
        try
        {
            final Path here = Path.of(ArtioProduct.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return here.getParent().getParent().getParent().resolve("bench-artio").resolve("target");
        }
        catch (final URISyntaxException ex)
        {
            throw new BenchException("artio: cannot locate the runner's build: " + ex.getMessage(), ex);
        }
    }
}
