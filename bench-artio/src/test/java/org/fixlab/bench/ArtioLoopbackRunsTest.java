package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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
 * A short real run of every scenario Artio plays, in both its configurations where they differ in
 * what is measured, over loopback through Artio's own session layer on both sides (this JVM has
 * Artio's classpath: Agrona 2.x, no engine); every run folder must follow the contract and be
 * ingested by the pipeline.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArtioLoopbackRunsTest
{
    private static final Product ARTIO = Products.ALL.stream().filter(p -> p.getClass().getSimpleName().equals("ArtioProduct"))
        .findFirst().orElseThrow();

    @TempDir
    static Path out;

    /** Working folders another process left in the temporary directory before these runs: not ours to judge. */
    private static final Set<Path> LEFT_BEFORE = artioWorkingFolders();

    private static Set<Path> artioWorkingFolders()
    {
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir"))))
        {
            return all.filter(p -> p.getFileName().toString().startsWith("fixlab-artio")).collect(Collectors.toCollection(HashSet::new));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static Stream<Arguments> scenarios()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final Scenario scenario : Scenario.values())
        {
            if (ARTIO.plays(scenario))
            {
                // each configuration plays at least one scenario: the durable archive the round trip, the yielding
                // threads the throughput stream, busy-spinning the internal points and the conversion
                final String config = switch (scenario)
                {
                    case RTT_ECHO -> "default";
                    case THROUGHPUT -> "yielding";
                    default -> "optimized";
                };
                cases.add(Arguments.of(scenario, config));
            }
        }
        return cases.stream();
    }

    @Order(1)
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scenarios")
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void writesAValidRunFolder(final Scenario scenario, final String config) throws Exception
    {
        final Path run = LoopbackRun.run(out, scenario, ARTIO, config, "artio", List.of());
        RunFolderAssertions.assertValid(run, scenario, LoopbackRun.MESSAGES);
        final var manifest = RunFolderAssertions.manifest(run);
        assertEquals(config.equals("default"), manifest.at("/configuration/artio/logInboundMessages").asBoolean());
        // the harness in Artio's JVM, which has no engine on its classpath, still measures the CPUs (CoreToCoreProbe)
        assertEquals("client", manifest.at("/hardware/hosts/1/role").asText());
        assertEquals(2, manifest.at("/hardware/hosts/1/core_to_core/cpus").size(), manifest.at("/hardware/hosts/1").toString());
        assertEquals(switch (config)
        {
            case "default" -> "backoff";
            case "yielding" -> "yield";
            default -> "busy-spin";
        }, manifest.at("/configuration/idle_strategy").asText());
    }

    @Test
    @Order(1)
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void closedLoopRoundTripOnTheDurableArchive() throws Exception
    {
        final Path run = LoopbackRun.run(out, Scenario.RTT_ECHO, ARTIO, "default", "artio-closed", List.of("--mode", "closed-loop"));
        RunFolderAssertions.assertValid(run, Scenario.RTT_ECHO, LoopbackRun.MESSAGES);
        assertEquals("closed-loop", RunFolderAssertions.manifest(run).at("/workload/mode").asText());
    }

    @Test
    void refusesTheInternalPointsItsApiCannotTimestamp()
    {
        for (final Scenario scenario : List.of(Scenario.INTERNAL_SEND, Scenario.INTERNAL_RECEIVE_SEND))
        {
            final BenchException ex = assertThrows(BenchException.class,
                () -> Options.parse(new String[] {"--scenario", scenario.id(), "--product", ARTIO.id()}));
            assertTrue(ex.getMessage().contains("does not play"), ex.getMessage());
        }
    }

    @Test
    @Order(2)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void pipelineIngestsEveryRunFolder() throws Exception
    {
        LoopbackRun.assertIngested(out, scenarios().count() + 1);
        final Set<Path> left = artioWorkingFolders();
        left.removeAll(LEFT_BEFORE);
        assertEquals(Set.of(), left, "Artio's working folders are removed after each run");
    }
}
