package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.fixlab.bench.Product;
import org.fixlab.bench.Products;
import org.fixlab.bench.Scenario;
import org.junit.jupiter.api.Test;

/** What a campaign runs: the size of the committed data and the interleaving follow from it. */
class PlanTest
{
    private static final List<Scenario> ALL_SCENARIOS = Arrays.asList(Scenario.values());
    private static final List<Product> ALL_PRODUCTS = Products.ALL;

    @Test
    void fullProfileRunsEveryConfigurationThreeTimesWithTheSeedRateAndStream()
    {
        final List<Plan.Run> runs = Plan.build("full", ALL_SCENARIOS, ALL_PRODUCTS, 0);

        assertEquals(198, runs.size());
        final List<Plan.Run> latencyRuns = runs.stream().filter(run -> run.scenario() != Scenario.THROUGHPUT).toList();
        assertEquals(177, latencyRuns.size(), "latency runs: their samples are what the 25 MB budget is spent on");
        assertTrue(latencyRuns.stream().allMatch(run -> run.messages() == Plan.FULL_MEASURED_MESSAGES && run.warmup() == Plan.FULL_WARMUP_MESSAGES
            && run.rate() == 50_000));
        assertTrue(runs.stream().filter(run -> run.scenario() == Scenario.THROUGHPUT)
            .allMatch(run -> run.messages() == 1_000_000 && run.warmup() == 100_000 && run.rate() == 0));
        assertEquals(Map.of(1, 66L, 2, 66L, 3, 66L),
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
            "1 paced fixlab/balanced", "1 paced fixlab/optimized", "1 paced fixlab/optimized-tls", "1 paced raw-socket/busy-spin",
            "1 closed-loop fixlab/balanced", "1 closed-loop fixlab/optimized", "1 closed-loop fixlab/optimized-tls",
            "1 closed-loop raw-socket/busy-spin",
            "2 paced fixlab/balanced", "2 paced fixlab/optimized", "2 paced fixlab/optimized-tls", "2 paced raw-socket/busy-spin",
            "2 closed-loop fixlab/balanced", "2 closed-loop fixlab/optimized", "2 closed-loop fixlab/optimized-tls",
            "2 closed-loop raw-socket/busy-spin"), order);
    }

    @Test
    void quickProfileIsOneSmallRepetition()
    {
        final List<Plan.Run> runs = Plan.build("quick", ALL_SCENARIOS, ALL_PRODUCTS, 0);

        assertEquals(48, runs.size());
        assertTrue(runs.stream().allMatch(run -> run.repetitions() == 1 && run.messages() <= 100_000));
    }
}
