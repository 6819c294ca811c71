package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A small real run of every scenario for every product over loopback TCP (server on a thread of
 * this JVM, client on the test thread), each writing a run folder that must follow the contract;
 * then the pipeline ingests every folder the class wrote.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LoopbackRunsTest
{
    private static final int MESSAGES = 300;

    @TempDir
    static Path out;

    static Stream<Arguments> scenarioAndProduct()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final Scenario scenario : Scenario.values())
        {
            cases.add(Arguments.of(scenario, Product.of("fixlab"), scenario.isInternal() ? "optimized-file" : "balanced"));
            cases.add(Arguments.of(scenario, Product.of("quickfixj"), scenario == Scenario.RTT_ECHO ? "default" : "optimized"));
            cases.add(Arguments.of(scenario, Product.of("raw-socket"), "busy-spin"));
        }
        cases.add(Arguments.of(Scenario.RTT_ECHO, Product.of("fixlab"), "optimized-mmap"));
        cases.add(Arguments.of(Scenario.RTT_ECHO, Product.of("fixlab"), "optimized-tls"));
        return cases.stream();
    }

    @Order(1)
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarioAndProduct")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writesAValidRunFolder(final Scenario scenario, final Product product, final String config) throws Exception
    {
        final Path run = run(scenario, product, config, "t", List.of());
        RunFolderAssertions.assertValid(run, scenario, MESSAGES);
    }

    @Test
    @Order(1)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closedLoopLatencyFromIntendedEqualsLatency() throws Exception
    {
        final Path run = run(Scenario.RTT_ECHO, Product.of("fixlab"), "optimized", "c", List.of("--mode", "closed-loop"));
        for (final String line : Files.readAllLines(run.resolve("latency.csv")).subList(1, MESSAGES + 1))
        {
            final String[] v = line.split(",");
            assertEquals(v[2], v[3], line);
        }
        assertEquals("closed-loop", RunFolderAssertions.manifest(run).at("/workload/mode").asText());
    }

    /** The pipeline's own validation of every run folder written above (make test-java builds the .venv first). */
    @Test
    @Order(2)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void pipelineIngestsEveryRunFolder() throws Exception
    {
        final Path fixlab = Path.of("..", ".venv", "bin", "fixlab").toAbsolutePath().normalize();
        assertTrue(Files.isExecutable(fixlab), "no " + fixlab + ": run make venv (make test-java does) to check the runs with the pipeline");
        final long folders;
        try (Stream<Path> campaigns = Files.list(out))
        {
            folders = campaigns.filter(Files::isDirectory).mapToLong(LoopbackRunsTest::runFolders).sum();
        }
        assertTrue(folders >= scenarioAndProduct().count(), "the runs above wrote their folders (" + folders + ")");
        final Process ingest = new ProcessBuilder(fixlab.toString(), "ingest", "--db", out.resolve("x.duckdb").toString(), "--keep-csv",
            out.toString()).redirectErrorStream(true).start();
        final String output = new String(ingest.getInputStream().readAllBytes());
        assertEquals(0, ingest.waitFor(), output);
        assertTrue(output.contains(folders + " runs ingested"), output);
    }

    private static long runFolders(final Path campaign)
    {
        try (Stream<Path> runs = Files.list(campaign))
        {
            return runs.filter(p -> Files.isRegularFile(p.resolve("manifest.json"))).count();
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static Path run(final Scenario scenario, final Product product, final String config, final String campaign, final List<String> extra)
        throws Exception
    {
        final int port = freePortPair();
        final List<String> common = List.of("--scenario", scenario.id(), "--product", product.id(), "--config", config,
            "--port", Integer.toString(port), "--timeout", "50");
        final List<String> serverArgs = new ArrayList<>(common);
        serverArgs.addAll(List.of("--bind", "127.0.0.1"));
        final CompletableFuture<Void> server = CompletableFuture.runAsync(() -> BenchServer.run(Options.parse(serverArgs.toArray(String[]::new))));
        final List<String> clientArgs = new ArrayList<>(common);
        clientArgs.addAll(List.of("--host", "127.0.0.1", "--messages", Integer.toString(MESSAGES), "--warmup", "100", "--rate", "20000",
            "--out", out.toString(), "--campaign", campaign, "--quiet"));
        clientArgs.addAll(extra);
        final Path run = BenchClient.run(Options.parse(clientArgs.toArray(String[]::new)));
        server.get(20, TimeUnit.SECONDS);
        return run;
    }

    static int freePortPair() throws IOException
    {
        for (int attempt = 0; attempt < 50; attempt++)
        {
            final int port;
            try (ServerSocket socket = new ServerSocket(0))
            {
                port = socket.getLocalPort();
            }
            if (port < 65535)
            {
                try (ServerSocket control = new ServerSocket(port + 1))
                {
                    return port;
                }
                catch (final IOException ex)
                {
                    // taken: try another
                }
            }
        }
        throw new IOException("no free pair of ports");
    }
}
