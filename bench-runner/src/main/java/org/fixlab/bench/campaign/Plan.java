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
    /** engine is the version of the product under test, or null when the campaign measures one version (this checkout). */
    record Run(Scenario scenario, String mode, Product product, String config, int repetition, int repetitions, int warmup,
        int messages, int rate, EngineVersion engine)
    {
        Run withEngine(final EngineVersion version)
        {
            return new Run(scenario, mode, product, config, repetition, repetitions, warmup, messages, rate, version);
        }

        Run withMessages(final int measured)
        {
            return new Run(scenario, mode, product, config, repetition, repetitions, warmup, measured, rate, engine);
        }
    }

    /** Measured and warm-up messages of a full profile's latency run. */
    static final int FULL_MEASURED_MESSAGES = 50_000;
    static final int FULL_WARMUP_MESSAGES = 150_000;
    /**
     * The latency samples a full campaign commits at most: the 0.1.0 campaign's 129 runs of 50,000, 20.2 MB at its
     * 2.9 bytes a sample, which leaves the manifests and histograms room under the 25 MB budget. A campaign with more
     * latency runs (another engine version side by side, more configurations or repetitions) measures fewer messages
     * a run, never fewer than {@link #FULL_MIN_MEASURED_MESSAGES}.
     */
    static final long FULL_LATENCY_SAMPLE_BUDGET = 129L * FULL_MEASURED_MESSAGES;
    /** Thirds of 10,000 (the steady-state check's) were moved by single hiccups; thirds of 7,000 a run are not. */
    static final int FULL_MIN_MEASURED_MESSAGES = 21_000;
    static final int THROUGHPUT_WARMUP_MESSAGES = 3_000_000;
    /**
     * The quick profile: the full profile's 3 s warm-up at the rate (drained rounds), then 1 s measured. With 2 s,
     * fixlab balanced's paced runs on 2 cores still started their measured second with a backlog.
     */
    static final int QUICK_WARMUP_MESSAGES = FULL_WARMUP_MESSAGES;
    /** One second at the seeds' rate: thirds of 10,000 messages (67 ms each) were moved by any single hiccup. */
    static final int QUICK_MEASURED_MESSAGES = 50_000;
    /**
     * The quick profile's warm-up for a product that does not keep up with the seeds' rate (QuickFIX/J, and Artio on a
     * small machine), whose quick runs are all closed-loop: on 2 cores its JIT, starved by the spinning threads, could
     * still be compiling after 150,000 round trips. A fresh clone's quick QuickFIX/J optimized round trip stepped
     * from 94 us to 53 us a quarter of the way into its measured messages, and failed the steady-state check.
     */
    static final int QUICK_SLOW_PRODUCT_WARMUP_MESSAGES = 2 * QUICK_WARMUP_MESSAGES;

    private Plan()
    {
    }

    static List<Run> build(final String profile, final List<Scenario> scenarios, final List<Product> products, final int repetitionsOverride)
    {
        return build(profile, scenarios, products, repetitionsOverride, List.of(), List.of(), skipped -> { });
    }

    /**
     * With several engine versions, each run of the product under test is made once per version, the versions
     * next to each other (A B, then B A in the next repetition, so neither always goes first), beside the other
     * products. A configuration a version did not have at its commit is skipped and reported.
     *
     * <p>{@code configurations} keeps only the runs of those configurations (all when empty): to repeat one
     * comparison many times, fixlab optimized against the raw socket's busy-spin say, without the other
     * configurations' runs in between. A name that none of the products has in these scenarios is refused.
     */
    static List<Run> build(final String profile, final List<Scenario> scenarios, final List<Product> products, final int repetitionsOverride,
        final List<EngineVersion> versions, final List<String> configurations, final java.util.function.Consumer<String> skipped)
    {
        final boolean full = switch (profile)
        {
            case "full" -> true;
            case "quick" -> false;
            default -> throw new BenchException("unknown PROFILE '" + profile + "' (expected quick or full)");
        };
        final int repetitions = repetitionsOverride > 0 ? repetitionsOverride : full ? 3 : 1;
        checkConfigurations(configurations, scenarios, products, full);
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
                        if ("paced".equals(mode) && !product.sustainsSeedRate())
                        {
                            // a campaign makes only runs that can reach a steady state: its queue would grow all along
                            if (r == 1)
                            {
                                skipped.accept(product.id() + " does not keep up with the seeds' 50,000 msg/s on a machine of "
                                    + Runtime.getRuntime().availableProcessors() + " cores: its " + scenario.id() + " paced runs are skipped");
                            }
                            continue;
                        }
                        final List<String> all = product.configurations(scenario, full);
                        final List<String> configs = configurations.isEmpty() ? all
                            : all.stream().filter(configurations::contains).toList();
                        if (configs.isEmpty() && r == 1 && modes(scenario).get(0).equals(mode))
                        {
                            skipped.accept(all.isEmpty()
                                ? product.id() + " has no " + scenario.id() + " configuration a campaign runs on a machine of "
                                    + Runtime.getRuntime().availableProcessors() + " cores (see its adapter): its " + scenario.id()
                                    + " runs are skipped"
                                : product.id() + " has none of the configurations " + configurations + " in " + scenario.id()
                                    + " (it has " + all + "): its " + scenario.id() + " runs are skipped");
                        }
                        for (final String config : configs)
                        {
                            final Run run = run(scenario, mode, product, config, r, repetitions, full);
                            if (versions.isEmpty() || !product.isSubject())
                            {
                                runs.add(run);
                                continue;
                            }
                            final List<EngineVersion> order = new ArrayList<>(versions);
                            if (r % 2 == 0)
                            {
                                java.util.Collections.reverse(order);
                            }
                            for (final EngineVersion version : order)
                            {
                                if (version.properties(config) != null)
                                {
                                    runs.add(run.withEngine(version));
                                }
                                else if (r == 1)
                                {
                                    skipped.accept(product.id() + " " + version.label() + " has no configuration " + config
                                        + " (at " + version.commit() + "): its " + scenario.id() + " " + mode + " runs are skipped");
                                }
                            }
                        }
                    }
                }
            }
        }
        return full ? withinSampleBudget(runs) : runs;
    }

    /** Refuses a configuration that no product of the campaign has in its scenarios: a typo would run nothing. */
    private static void checkConfigurations(final List<String> configurations, final List<Scenario> scenarios,
        final List<Product> products, final boolean full)
    {
        final java.util.Set<String> known = new java.util.TreeSet<>();
        for (final Product product : products)
        {
            for (final Scenario scenario : scenarios)
            {
                if (product.plays(scenario))
                {
                    known.addAll(product.configurations(scenario, full));
                }
            }
        }
        for (final String configuration : configurations)
        {
            if (!known.contains(configuration))
            {
                throw new BenchException("unknown configuration '" + configuration + "': the campaign's products have " + known
                    + " in its scenarios");
            }
        }
    }

    /** The measured messages of each latency run: the full count, or fewer (in thousands) if the budget says so. */
    static int fullMeasuredMessages(final long latencyRuns)
    {
        final long share = latencyRuns == 0 ? FULL_MEASURED_MESSAGES : FULL_LATENCY_SAMPLE_BUDGET / latencyRuns / 1_000 * 1_000;
        return (int)Math.max(FULL_MIN_MEASURED_MESSAGES, Math.min(FULL_MEASURED_MESSAGES, share));
    }

    private static List<Run> withinSampleBudget(final List<Run> runs)
    {
        final long latencyRuns = runs.stream().filter(run -> run.scenario() != Scenario.THROUGHPUT).count();
        final int measured = fullMeasuredMessages(latencyRuns);
        return runs.stream().map(run -> run.scenario() == Scenario.THROUGHPUT ? run : run.withMessages(measured)).toList();
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
            // The seeds' rate (50,000 msg/s) and stream (1,000,000 measured), but at most 50,000 measured messages a
            // latency run where seed 000 measured 200,000: every sample is committed losslessly, at about 3 bytes each
            // (their entropy), and a campaign must stay under 25 MB (withinSampleBudget gives the count). The warm-up is 3 s at the rate (150,000): on 2 cores the JIT
            // compiler threads are still busy after 1 s, and each of their time slices is a millisecond stall of a
            // spinning thread that a 1 s measurement would show at p99. `--messages 200000` gives the seed's count.
            // The stream warms up with 3,000,000 orders: after 100,000, every product's rate still doubled during the
            // measured million (the steady-state check refused those runs).
            return scenario == Scenario.THROUGHPUT
                ? new Run(scenario, mode, product, config, r, repetitions, THROUGHPUT_WARMUP_MESSAGES, 1_000_000, 0, null)
                : new Run(scenario, mode, product, config, r, repetitions, FULL_WARMUP_MESSAGES, FULL_MEASURED_MESSAGES, 50_000, null);
        }
        // Quick: fewer measured messages, but the full profile's warm-up, so that its runs are steady too (a stream
        // warmed up with 1,000,000 orders still sped up during its measured half million: fixlab and the raw socket).
        final int warmup = product.sustainsSeedRate() ? QUICK_WARMUP_MESSAGES : QUICK_SLOW_PRODUCT_WARMUP_MESSAGES;
        return scenario == Scenario.THROUGHPUT
            ? new Run(scenario, mode, product, config, r, repetitions, THROUGHPUT_WARMUP_MESSAGES, 500_000, 0, null)
            : new Run(scenario, mode, product, config, r, repetitions, warmup, QUICK_MEASURED_MESSAGES, 50_000, null);
    }
}
