package org.fixlab.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The command line of both roles, checked up front so a bad argument ends with one line that names
 * it. Values are kept as given so the manifest can print the exact command that re-runs a run.
 */
public final class Options
{
    private static final Set<String> KEYS = Set.of("scenario", "product", "config", "properties", "host", "bind", "port",
        "control-port", "mode", "rate", "messages", "warmup", "campaign", "out", "run-id", "repetition", "repetitions",
        "launcher", "timeout", "progress-every", "quiet");

    private final Map<String, String> values = new LinkedHashMap<>();
    public final Scenario scenario;
    public final Product product;
    public final String config;
    public final String properties;
    public final String host;
    public final String bind;
    public final int port;
    public final int controlPort;
    public final String mode;
    public final int rate;
    public final int messages;
    public final int warmup;
    public final String campaign;
    public final String out;
    public final int repetition;
    public final int repetitions;
    public final String launcher;
    public final int timeoutSeconds;
    public final boolean quiet;

    private Options(final String[] args)
    {
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--") || !KEYS.contains(arg.substring(2)))
            {
                throw new BenchException("unknown argument '" + arg + "' (known: --" + String.join(", --", new java.util.TreeSet<>(KEYS)) + ")");
            }
            final String key = arg.substring(2);
            if (key.equals("quiet"))
            {
                values.put(key, "true");
                continue;
            }
            if (i + 1 >= args.length)
            {
                throw new BenchException("argument " + arg + " needs a value");
            }
            values.put(key, args[++i]);
        }
        scenario = Scenario.of(value("scenario", "rtt-echo"));
        product = Product.of(value("product", Products.ALL.get(0).id()));
        properties = values.get("properties");
        config = value("config", properties != null ? "custom" : product.defaultConfiguration());
        if (properties == null && !product.configurations().contains(config))
        {
            throw new BenchException("unknown configuration '" + config + "' for " + product.id() + " (expected one of "
                + String.join(", ", product.configurations()) + ")");
        }
        if (properties != null && !product.takesPropertiesFile())
        {
            throw new BenchException("--properties is an engine.properties file, only for --product "
                + Products.ALL.stream().filter(Product::takesPropertiesFile).map(Product::id).findFirst().orElse("(none)"));
        }
        host = value("host", "127.0.0.1");
        bind = value("bind", "0.0.0.0");
        port = intValue("port", 9880, 1, 65535);
        controlPort = intValue("control-port", port == 65535 ? port - 1 : port + 1, 1, 65535);
        if (controlPort == port)
        {
            throw new BenchException("--control-port must differ from --port (" + port + ")");
        }
        if (!product.plays(scenario))
        {
            throw new BenchException(product.id() + " does not play " + scenario.id() + " (its API gives no honest place for the timestamps; "
                + "see bench-runner/README.md)");
        }
        final boolean internal = scenario.isInternal();
        final String defaultMode = scenario == Scenario.THROUGHPUT ? "stream" : internal ? "closed-loop" : "paced";
        mode = value("mode", defaultMode);
        if (scenario.canPace() ? !(mode.equals("paced") || mode.equals("closed-loop")) : !mode.equals(defaultMode))
        {
            throw new BenchException("--mode " + mode + " does not apply to " + scenario.id() + " (use "
                + (scenario.canPace() ? "paced or closed-loop" : defaultMode) + ")");
        }
        rate = intValue("rate", 50_000, 1, 10_000_000);
        final boolean stream = scenario == Scenario.THROUGHPUT;
        messages = intValue("messages", stream ? 1_000_000 : 200_000, 1, 50_000_000);
        warmup = intValue("warmup", stream ? 100_000 : 50_000, 0, 50_000_000);
        campaign = value("campaign", DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmm'Z'").format(ZonedDateTime.now(ZoneOffset.UTC)) + "-manual");
        out = value("out", System.getenv().getOrDefault("FIXLAB_RUNS_DIR", "data/runs"));
        repetition = intValue("repetition", 1, 1, 1000);
        repetitions = intValue("repetitions", Math.max(1, repetition), 1, 1000);
        if (repetition > repetitions)
        {
            throw new BenchException("--repetition " + repetition + " is beyond --repetitions " + repetitions);
        }
        launcher = value("launcher", "");
        timeoutSeconds = intValue("timeout", 120, 1, 86_400);
        quiet = values.containsKey("quiet");
        if (!campaign.matches("[A-Za-z0-9][A-Za-z0-9._-]*"))
        {
            throw new BenchException("--campaign '" + campaign + "' must be letters, digits, '.', '_' or '-'");
        }
    }

    public static Options parse(final String[] args)
    {
        return new Options(args);
    }

    public boolean paced()
    {
        return mode.equals("paced");
    }

    /** The run's folder name: scenario[.mode].product.configuration.rN. */
    public String runId()
    {
        final String given = values.get("run-id");
        if (given != null)
        {
            return given;
        }
        return scenario.id() + (scenario.canPace() ? "." + mode : "") + "." + product.id() + "." + config + ".r" + repetition;
    }

    /** Every value of a bin/ script's identity and workload, for the reproduce commands. */
    public String serverArguments(final String bindAddress)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(" --scenario ").append(scenario.id()).append(" --product ").append(product.id());
        appendConfig(sb);
        sb.append(" --bind ").append(bindAddress).append(" --port ").append(port);
        if (values.containsKey("control-port"))
        {
            sb.append(" --control-port ").append(controlPort);
        }
        return sb.toString();
    }

    public String clientArguments(final String hostAddress)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(" --scenario ").append(scenario.id()).append(" --product ").append(product.id());
        appendConfig(sb);
        sb.append(" --host ").append(hostAddress).append(" --port ").append(port);
        if (values.containsKey("control-port"))
        {
            sb.append(" --control-port ").append(controlPort);
        }
        if (scenario.canPace())
        {
            sb.append(" --mode ").append(mode);
        }
        if (paced())
        {
            sb.append(" --rate ").append(rate);
        }
        sb.append(" --messages ").append(messages).append(" --warmup ").append(warmup);
        return sb.toString();
    }

    private void appendConfig(final StringBuilder sb)
    {
        if (properties != null)
        {
            // a campaign names the configuration its engine.properties stands for: the run records it, and so does
            // the command that reproduces the run (without it, the run would be named "custom")
            if (!"custom".equals(config))
            {
                sb.append(" --config ").append(config);
            }
            sb.append(" --properties ").append(properties);
        }
        else
        {
            sb.append(" --config ").append(config);
        }
    }

    private String value(final String key, final String fallback)
    {
        final String value = values.get(key);
        return value == null ? fallback : value;
    }

    private int intValue(final String key, final int fallback, final int min, final int max)
    {
        final String value = values.get(key);
        if (value == null)
        {
            return fallback;
        }
        final long parsed;
        try
        {
            parsed = Long.parseLong(value.trim().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new BenchException("--" + key + " '" + value + "' is not a whole number");
        }
        if (parsed < min || parsed > max)
        {
            throw new BenchException("--" + key + " " + parsed + " is out of range " + min + ".." + max
                + (key.equals("rate") && parsed <= 0 ? " (a rate of zero would never send)" : ""));
        }
        return (int)parsed;
    }
}
