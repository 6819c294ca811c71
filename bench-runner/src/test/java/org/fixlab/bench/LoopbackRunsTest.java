package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

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
    private static final int MESSAGES = LoopbackRun.MESSAGES;

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
        cases.add(Arguments.of(Scenario.THROUGHPUT, Product.of("fixlab"), "balanced-nolog"));
        return cases.stream();
    }

    @Order(1)
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarioAndProduct")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writesAValidRunFolder(final Scenario scenario, final Product product, final String config) throws Exception
    {
        final Path run = LoopbackRun.run(out, scenario, product, config, "t", List.of());
        RunFolderAssertions.assertValid(run, scenario, MESSAGES);
        if (scenario.canPace())
        {
            // the server's thread is seen where it answers and spins: the raw socket, fixlab's optimized presets
            final boolean spins = product.id().equals("raw-socket") || product.id().equals("fixlab") && config.startsWith("optimized");
            assertEquals(spins, !RunFolderAssertions.manifest(run).at("/hardware/hosts/1/stalls/server_ns").isMissingNode(),
                RunFolderAssertions.manifest(run).at("/hardware/hosts/1/stalls").toString());
        }
        final JsonNode tls = RunFolderAssertions.manifest(run).at("/configuration/tls");
        if (config.endsWith("-tls"))
        {
            // what the handshake chose: the JDK's first TLS 1.3 suite, as the configuration leaves the choice to it
            assertEquals("TLSv1.3", tls.path("protocol").asText(), tls.toString());
            assertTrue(tls.path("cipher_suite").asText().matches("TLS_AES_(128|256)_GCM_SHA(256|384)|TLS_CHACHA20_POLY1305_SHA256"),
                tls.toString());
        }
        else
        {
            assertTrue(tls.isMissingNode(), "a run without TLS has no configuration.tls: " + tls);
        }
    }

    @Test
    @Order(1)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closedLoopLatencyFromIntendedEqualsLatency() throws Exception
    {
        final Path run = LoopbackRun.run(out, Scenario.RTT_ECHO, Product.of("fixlab"), "optimized", "c", List.of("--mode", "closed-loop"));
        for (final String line : Files.readAllLines(run.resolve("latency.csv")).subList(1, MESSAGES + 1))
        {
            final String[] v = line.split(",");
            assertEquals(v[2], v[3], line);
        }
        assertEquals("closed-loop", RunFolderAssertions.manifest(run).at("/workload/mode").asText());
    }

    /** The baseline's buffers are fixed, as the optimized engine's are: left to autotuning its stream was unsteady. */
    @Test
    @Order(1)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void rawSocketBuffersAreFixed() throws Exception
    {
        final Path run = LoopbackRun.run(out, Scenario.THROUGHPUT, Product.of("raw-socket"), "busy-spin", "b", List.of());
        final var buffers = RunFolderAssertions.manifest(run).at("/configuration/socket_buffers");
        assertTrue(buffers.get("send").asInt() >= 1 << 20, buffers.toString());
        assertTrue(buffers.get("receive").asInt() >= 1 << 20, buffers.toString());
    }

    /**
     * On one host the runner pins the load generator (the client's benchmark thread, here the test's) to a CPU the
     * server's thread is not pinned to, when the product left it unpinned, and gives it its CPUs back after the run;
     * the server keeps its unpinned thread off that CPU.
     */
    @Test
    @Order(1)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theLoadGeneratorAndTheServerRunOnCpusOfTheirOwn() throws Exception
    {
        final java.util.BitSet before = net.openhft.affinity.Affinity.getAffinity();
        assumeTrue(before.cardinality() >= 2, "needs two CPUs");
        final Path run = LoopbackRun.run(out, Scenario.RTT_ECHO, Product.of("raw-socket"), "busy-spin", "p", List.of());
        final var configuration = RunFolderAssertions.manifest(run).at("/configuration");
        assertEquals("pinned to CPU " + before.nextSetBit(0) + " by the runner (the load generator; unpinned by the product)",
            configuration.get("client_thread").asText());
        assertEquals("kept off CPU " + before.nextSetBit(0) + " (the load generator's) by the runner; unpinned by the product",
            configuration.get("server_thread").asText());
        assertEquals(before, net.openhft.affinity.Affinity.getAffinity(), "the test's thread has its CPUs back");
    }

    @Test
    @Order(2)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void pipelineIngestsEveryRunFolder() throws Exception
    {
        LoopbackRun.assertIngested(out, scenarioAndProduct().count());
    }
}
