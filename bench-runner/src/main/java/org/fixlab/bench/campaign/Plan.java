package org.fixlab.bench.campaign;

import java.util.ArrayList;
import java.util.List;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Product;
import org.fixlab.bench.Scenario;

/**
 * The runs of a campaign, in order: repetition, then scenario (and mode), then every product and
 * configuration in turn, so A B C A B C ... and machine drift hits them all alike.
 */
final class Plan
{
    record Run(Scenario scenario, String mode, Product product, String config, int repetition, int repetitions, int warmup,
        int messages, int rate)
    {
    }

    /** Measured and warm-up messages of a full profile's latency run. */
    static final int FULL_MEASURED_MESSAGES = 50_000;
    static final int FULL_WARMUP_MESSAGES = 150_000;

    private Plan()
    {
    }

    static List<Run> build(final String profile, final List<Scenario> scenarios, final List<Product> products, final int repetitionsOverride)
    {
        final boolean full = switch (profile)
        {
            case "full" -> true;
            case "quick" -> false;
            default -> throw new BenchException("unknown PROFILE '" + profile + "' (expected quick or full)");
        };
        final int repetitions = repetitionsOverride > 0 ? repetitionsOverride : full ? 3 : 1;
        final List<Run> runs = new ArrayList<>();
        for (int r = 1; r <= repetitions; r++)
        {
            for (final Scenario scenario : scenarios)
            {
                for (final String mode : modes(scenario))
                {
                    for (final Product product : products)
                    {
                        if (!product.plays(scenario))
                        {
                            continue;
                        }
                        for (final String config : product.configurations(scenario, full))
                        {
                            runs.add(run(scenario, mode, product, config, r, repetitions, full));
                        }
                    }
                }
            }
        }
        return runs;
    }

    private static List<String> modes(final Scenario scenario)
    {
        if (scenario == Scenario.RTT_ECHO)
        {
            return List.of("paced", "closed-loop");
        }
        return List.of(scenario == Scenario.THROUGHPUT ? "stream" : scenario.isInternal() ? "closed-loop" : "paced");
    }

    private static Run run(final Scenario scenario, final String mode, final Product product, final String config, final int r,
        final int repetitions, final boolean full)
    {
        if (full)
        {
            // The seeds' rate (50,000 msg/s) and stream (1,000,000 after warm-up), but 50,000 measured messages a
            // latency run where seed 000 measured 200,000: every sample is committed losslessly, at about 3 bytes each
            // (their entropy), and a campaign of 129 latency runs must stay under 25 MB; with 3 repetitions a
            // configuration still has 150,000 samples. The warm-up is 3 s at the rate (150,000): on 2 cores the JIT
            // compiler threads are still busy after 1 s, and each of their time slices is a millisecond stall of a
            // spinning thread that a 1 s measurement would show at p99. `--messages 200000` gives the seed's count.
            return scenario == Scenario.THROUGHPUT
                ? new Run(scenario, mode, product, config, r, repetitions, 100_000, 1_000_000, 0)
                : new Run(scenario, mode, product, config, r, repetitions, FULL_WARMUP_MESSAGES, FULL_MEASURED_MESSAGES, 50_000);
        }
        return switch (scenario)
        {
            case THROUGHPUT -> new Run(scenario, mode, product, config, r, repetitions, 10_000, 100_000, 0);
            case RTT_ECHO, CONVERSION -> new Run(scenario, mode, product, config, r, repetitions, 1_000, 5_000, 50_000);
            default -> new Run(scenario, mode, product, config, r, repetitions, 500, 2_000, 50_000);
        };
    }
}
