package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Product;
import org.fixlab.bench.Products;
import org.fixlab.bench.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a campaign runs: the size of the committed data and the interleaving follow from it. */
class PlanTest
{
    private static final List<Scenario> ALL_SCENARIOS = Arrays.asList(Scenario.values());
    /** Every product whose campaign plan does not depend on the machine (Artio's depends on its cores). */
    private static final List<Product> ALL_PRODUCTS = Products.ALL.stream().filter(p -> !p.id().equals("artio")).toList();

    @Test
    void fullProfileRunsEveryConfigurationThreeTimesWithTheSeedRateAndStream()
    {
        final List<Plan.Run> runs = Plan.build("full", ALL_SCENARIOS, ALL_PRODUCTS, 0);

        assertEquals(159, runs.size(), "QuickFIX/J's paced runs are left out: it does not keep up with the rate");
        final List<Plan.Run> latencyRuns = runs.stream().filter(run -> run.scenario() != Scenario.THROUGHPUT).toList();
        assertEquals(141, latencyRuns.size(), "latency runs: their samples are what the 25 MB budget is spent on");
        final int measured = Plan.fullMeasuredMessages(141);
        assertEquals(45_000, measured, "141 latency runs share the 129 x 50,000 samples 0.1.0's campaign committed");
        assertTrue(latencyRuns.stream().allMatch(run -> run.messages() == measured && run.warmup() == Plan.FULL_WARMUP_MESSAGES
            && run.rate() == 50_000));
        assertTrue(runs.stream().filter(run -> run.scenario() == Scenario.THROUGHPUT)
            .allMatch(run -> run.messages() == 1_000_000 && run.warmup() == Plan.THROUGHPUT_WARMUP_MESSAGES && run.rate() == 0));
        assertEquals(Map.of(1, 53L, 2, 53L, 3, 53L),
            runs.stream().collect(Collectors.groupingBy(Plan.Run::repetition, Collectors.counting())));
    }

    @Test
    void repetitionsInterleaveProductsSoDriftHitsThemAlike()
    {
        final List<Plan.Run> runs = Plan.build("full", List.of(Scenario.RTT_ECHO), List.of(Product.of("fixlab"), Product.of("raw-socket")), 2);

        final List<String> order = runs.stream()
            .map(run -> run.repetition() + " " + run.mode() + " " + run.product().id() + "/" + run.config())
            .toList();
        assertEquals(List.of(
            "1 paced fixlab/balanced", "1 paced fixlab/balanced-nolog", "1 paced fixlab/optimized", "1 paced fixlab/optimized-tls",
            "1 paced raw-socket/busy-spin",
            "1 closed-loop fixlab/balanced", "1 closed-loop fixlab/balanced-nolog", "1 closed-loop fixlab/optimized",
            "1 closed-loop fixlab/optimized-tls", "1 closed-loop raw-socket/busy-spin",
            "2 paced fixlab/balanced", "2 paced fixlab/balanced-nolog", "2 paced fixlab/optimized", "2 paced fixlab/optimized-tls",
            "2 paced raw-socket/busy-spin",
            "2 closed-loop fixlab/balanced", "2 closed-loop fixlab/balanced-nolog", "2 closed-loop fixlab/optimized",
            "2 closed-loop fixlab/optimized-tls", "2 closed-loop raw-socket/busy-spin"), order);
    }

    @Test
    void quickProfileIsOneSmallRepetitionOfRunsThatCanBeSteady()
    {
        final List<Plan.Run> runs = Plan.build("quick", ALL_SCENARIOS, ALL_PRODUCTS, 0);

        assertEquals(26, runs.size()); // no internal points of the peers nor fixlab balanced: make run stays within its 10 minutes
        assertTrue(runs.stream().allMatch(run -> run.repetitions() == 1 && run.messages() <= 500_000));
        // The same kind of warm-up as the full profile (the JIT is not done after 1,000 messages), and no paced
        // run of a product that cannot keep up with the rate: those can never be steady.
        assertTrue(runs.stream().filter(run -> run.scenario() != Scenario.THROUGHPUT)
            .allMatch(run -> run.warmup() == (run.product().sustainsSeedRate() ? Plan.QUICK_WARMUP_MESSAGES : Plan.QUICK_SLOW_PRODUCT_WARMUP_MESSAGES)
                && run.messages() == Plan.QUICK_MEASURED_MESSAGES));
        // the products that cannot keep up with the rate warm up twice as long (their quick runs are closed-loop)
        assertTrue(runs.stream().anyMatch(run -> run.warmup() == Plan.QUICK_SLOW_PRODUCT_WARMUP_MESSAGES && run.mode().equals("closed-loop")));
        assertTrue(runs.stream().noneMatch(run -> run.mode().equals("paced") && !run.product().sustainsSeedRate()));
        // Time budget of `make run` (under 10 minutes with the build and the site): messages at the rate or less.
        final double pacedSeconds = runs.stream().filter(run -> run.rate() > 0)
            .mapToDouble(run -> (run.warmup() + run.messages()) / (double) run.rate()).sum();
        assertTrue(pacedSeconds < 120, "paced time " + pacedSeconds);
    }

    @Test
    void aReleaseCampaignOfTwoVersionsStaysWithinTheSampleBudget(@TempDir final Path dir) throws IOException
    {
        final EngineVersion previous = version(dir, "0.1.0", "balanced", "optimized", "optimized-file", "optimized-mmap");
        final EngineVersion next = version(dir, "0.2.0", "balanced", "balanced-nolog", "optimized", "optimized-file", "optimized-mmap",
            "optimized-tls");
        final List<Plan.Run> runs = Plan.build("full", ALL_SCENARIOS, Products.ALL, 0, List.of(previous, next), List.of(), skipped -> { });
        final List<Plan.Run> latencyRuns = runs.stream().filter(run -> run.scenario() != Scenario.THROUGHPUT).toList();

        final long samples = latencyRuns.stream().mapToLong(Plan.Run::messages).sum();
        assertTrue(samples <= Plan.FULL_LATENCY_SAMPLE_BUDGET, samples + " samples in " + latencyRuns.size() + " latency runs");
        assertTrue(samples > Plan.FULL_LATENCY_SAMPLE_BUDGET * 0.95, "the budget is used, not wasted: " + samples);
        assertEquals(1, latencyRuns.stream().map(Plan.Run::messages).distinct().count(), "every latency run measures as many");
        assertTrue(latencyRuns.get(0).messages() >= Plan.FULL_MIN_MEASURED_MESSAGES);
        assertTrue(runs.stream().filter(run -> run.scenario() == Scenario.THROUGHPUT).allMatch(run -> run.messages() == 1_000_000));
    }

    @Test
    void theBudgetNeverCutsARunBelowTheSteadyStateChecksMinimum()
    {
        assertEquals(Plan.FULL_MEASURED_MESSAGES, Plan.fullMeasuredMessages(10));
        assertEquals(Plan.FULL_MEASURED_MESSAGES, Plan.fullMeasuredMessages(129));
        assertEquals(49_000, Plan.fullMeasuredMessages(130));
        assertEquals(Plan.FULL_MIN_MEASURED_MESSAGES, Plan.fullMeasuredMessages(10_000));
    }

    @Test
    void engineVersionsRunSideBySideAndSwapOrderEachRepetition(@TempDir final Path dir) throws IOException
    {
        final EngineVersion a = version(dir, "0.1.0", "balanced", "optimized");
        final EngineVersion b = version(dir, "0.2.0", "balanced", "balanced-nolog", "optimized", "optimized-tls");
        final List<String> skipped = new ArrayList<>();
        final List<Plan.Run> runs = Plan.build("full", List.of(Scenario.THROUGHPUT), List.of(Product.of("fixlab"), Product.of("raw-socket")),
            2, List.of(a, b), List.of(), skipped::add);

        final List<String> order = runs.stream()
            .map(run -> run.repetition() + " " + run.product().id() + (run.engine() == null ? "" : " " + run.engine().label()) + "/" + run.config())
            .toList();
        assertEquals(List.of(
            "1 fixlab 0.1.0/balanced", "1 fixlab 0.2.0/balanced", "1 fixlab 0.2.0/balanced-nolog",
            "1 fixlab 0.1.0/optimized", "1 fixlab 0.2.0/optimized", "1 raw-socket/busy-spin",
            "2 fixlab 0.2.0/balanced", "2 fixlab 0.1.0/balanced", "2 fixlab 0.2.0/balanced-nolog",
            "2 fixlab 0.2.0/optimized", "2 fixlab 0.1.0/optimized", "2 raw-socket/busy-spin"), order);
        assertEquals(List.of("fixlab 0.1.0 has no configuration balanced-nolog (at c010): its throughput stream runs are skipped"),
            skipped);
        skipped.clear();

        final List<Plan.Run> rtt = Plan.build("full", List.of(Scenario.RTT_ECHO), List.of(Product.of("fixlab")), 1, List.of(a, b), List.of(), skipped::add);
        assertTrue(rtt.stream().noneMatch(run -> run.engine() == a && run.config().equals("optimized-tls")));
        assertEquals(2, rtt.stream().filter(run -> run.config().equals("optimized-tls")).count());
        assertEquals(4, skipped.size(), "one note per mode for each configuration 0.1.0 lacks: " + skipped);
    }

    @Test
    void chosenConfigurationsAloneAreRunInterleavedSoOneComparisonCanBeRepeatedManyTimes()
    {
        final List<String> skipped = new ArrayList<>();
        final List<Plan.Run> runs = Plan.build("full", List.of(Scenario.RTT_ECHO, Scenario.THROUGHPUT),
            List.of(Product.of("fixlab"), Product.of("raw-socket")), 20, List.of(), List.of("optimized", "busy-spin"), skipped::add);

        assertEquals(20 * 3 * 2, runs.size(), "20 repetitions of paced, closed-loop and stream, for the two configurations");
        assertEquals(List.of("fixlab/optimized", "raw-socket/busy-spin"), runs.stream()
            .map(run -> run.product().id() + "/" + run.config()).distinct().sorted().toList());
        // each repetition holds both products of each mode next to each other, before the next repetition starts
        for (int i = 0; i < runs.size(); i += 2)
        {
            assertEquals(runs.get(i).repetition(), runs.get(i + 1).repetition());
            assertEquals(runs.get(i).mode(), runs.get(i + 1).mode());
            assertEquals(List.of("fixlab", "raw-socket"), List.of(runs.get(i).product().id(), runs.get(i + 1).product().id()));
        }
        assertEquals(List.of(), skipped);

        final List<Plan.Run> fixlabOnly = Plan.build("quick", List.of(Scenario.RTT_ECHO), List.of(Product.of("fixlab"),
            Product.of("raw-socket")), 2, List.of(), List.of("optimized"), skipped::add);
        assertTrue(fixlabOnly.stream().allMatch(run -> run.config().equals("optimized")));
        assertEquals(List.of("raw-socket has none of the configurations [optimized] in rtt-echo (it has [busy-spin]): its rtt-echo runs are"
            + " skipped"), skipped);

        final BenchException typo = assertThrows(BenchException.class, () -> Plan.build("quick", List.of(Scenario.RTT_ECHO),
            List.of(Product.of("fixlab"), Product.of("raw-socket")), 1, List.of(), List.of("optimised"), s -> { }));
        assertTrue(typo.getMessage().startsWith("unknown configuration 'optimised': the campaign's products have ["), typo.getMessage());
        assertTrue(typo.getMessage().contains("busy-spin") && typo.getMessage().contains("optimized"), typo.getMessage());
    }

    /** A product that cannot run a scenario on this machine (Artio's throughput on fewer than 6 cores) is left out of it, and said so once. */
    @Test
    void aScenarioAProductHasNoConfigurationForIsSkippedAndReported()
    {
        final Product partial = new Product()
        {
            @Override
            public String id()
            {
                return "partial";
            }

            @Override
            public String label()
            {
                return "Partial";
            }

            @Override
            public List<String> configurations()
            {
                return List.of("default");
            }

            @Override
            public List<String> configurations(final Scenario scenario, final boolean full)
            {
                return scenario == Scenario.THROUGHPUT ? List.of() : configurations();
            }

            @Override
            public Map<String, Object> info()
            {
                return Map.of("name", id());
            }

            @Override
            public org.fixlab.bench.ProductConfig configure(final org.fixlab.bench.Options options)
            {
                throw new UnsupportedOperationException("not run by this test");
            }
        };
        final List<String> skipped = new ArrayList<>();
        final List<Plan.Run> runs = Plan.build("full", List.of(Scenario.RTT_ECHO, Scenario.THROUGHPUT), List.of(partial, Product.of("raw-socket")), 3,
            List.of(), List.of(), skipped::add);
        assertTrue(runs.stream().noneMatch(run -> run.scenario() == Scenario.THROUGHPUT && run.product() == partial), "no throughput runs for it");
        assertEquals(6, runs.stream().filter(run -> run.scenario() == Scenario.RTT_ECHO && run.product() == partial).count(), "2 modes x 3 repetitions");
        assertEquals(3, runs.stream().filter(run -> run.scenario() == Scenario.THROUGHPUT).count(), "the raw socket's throughput runs stay");
        assertEquals(1, skipped.size(), "one note for the campaign: " + skipped);
        assertTrue(skipped.get(0).startsWith("partial has no throughput configuration"), skipped.get(0));
    }

    private static EngineVersion version(final Path dir, final String label, final String... configurations) throws IOException
    {
        final Path jar = Files.writeString(dir.resolve(label + ".jar"), "");
        for (final String configuration : configurations)
        {
            Files.createDirectories(dir.resolve(label).resolve(configuration));
            Files.writeString(dir.resolve(label).resolve(configuration).resolve("engine.properties"), "");
        }
        return EngineVersion.parse(label + "|c" + label.replace(".", "") + "|" + jar + "|" + dir.resolve(label)).get(0);
    }
}
