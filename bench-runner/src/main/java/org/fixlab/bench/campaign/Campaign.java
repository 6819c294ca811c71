package org.fixlab.bench.campaign;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Product;
import org.fixlab.bench.Products;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.run.DamonPause;
import org.fixlab.bench.run.MemoryBacking;

/**
 * A campaign as a user would run it: for each run of the {@link Plan}, a server process and a
 * client process (two JVMs over loopback, through the same bin/ scripts), one run at a time. Shows
 * which run is going and the client's progress lines; ends with a summary table. A failed run is
 * reported and the campaign goes on; the exit status says whether all runs succeeded.
 */
public final class Campaign
{
    private Campaign()
    {
    }

    public static void main(final String[] args)
    {
        String profile = "quick";
        String campaign = null;
        String out = System.getenv().getOrDefault("FIXLAB_RUNS_DIR", "data/runs"); // as a single run
        String launcher = "";
        int portBase = 9880;
        int repetitions = 0;
        List<Scenario> scenarios = Arrays.asList(Scenario.values());
        List<Product> products = Products.ALL;
        List<EngineVersion> versions = List.of();
        List<String> configurations = List.of();
        boolean pauseDamon = false;
        for (int i = 0; i < args.length; i++)
        {
            final String key = args[i];
            if (i + 1 >= args.length)
            {
                throw new BenchException("argument " + key + " needs a value");
            }
            final String value = args[++i];
            switch (key)
            {
                case "--profile" -> profile = value;
                case "--campaign" -> campaign = value.isBlank() ? null : value;
                case "--out" -> out = value;
                case "--launcher" -> launcher = value;
                case "--port-base" -> portBase = Integer.parseInt(value);
                case "--repetitions" -> repetitions = Integer.parseInt(value);
                case "--scenarios" -> scenarios = value.isBlank() ? scenarios : split(value).stream().map(Scenario::of).toList();
                case "--products" -> products = value.isBlank() ? products : split(value).stream().map(Product::of).toList();
                case "--versions" -> versions = EngineVersion.parse(value);
                case "--configurations" -> configurations = split(value);
                case "--pause-damon" -> pauseDamon = yes(key, value);
                default -> throw new BenchException("unknown campaign argument '" + key + "' (known: --profile, --campaign, --scenarios, "
                    + "--products, --configurations, --versions, --repetitions, --out, --port-base, --launcher, --pause-damon)");
            }
        }
        if (!Files.isExecutable(Path.of(Script.PATH)))
        {
            throw new BenchException(Script.PATH + " not found: run the campaign from the repository root");
        }
        final String name = campaign != null ? campaign
            : DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmm'Z'").format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + profile;
        final List<Plan.Run> runs = Plan.build(profile, scenarios, products, repetitions, versions, configurations,
            skipped -> System.out.println("skipped: " + skipped));
        System.out.printf("campaign %s: %d runs (profile %s), output %s/%s%n", name, runs.size(), profile, out, name);
        versions.forEach(v -> System.out.printf("  engine %s: commit %s, %s%n", v.label(), v.commit(), v.jar()));
        if (MemoryBacking.reportsFreePages())
        {
            System.out.println("note: this machine gives freed memory back to its host (virtio-balloon free page reporting), so the "
                + "runs that write files (file and mapped stores, message logs) wait for the host on each new page: their figures "
                + "are the machine's as much as the engine's. Each run's manifest records it (hardware.hosts[].memory).");
        }
        final List<String> failures = new ArrayList<>();
        final List<Path> written = new ArrayList<>();
        final long start = System.nanoTime();
        try (DamonPause damon = pauseDamon ? DamonPause.pause() : null)
        {
            noteDamon(damon);
            runAll(runs, name, out, portBase, launcher, start, written, failures);
        }
        System.out.printf("%ncampaign %s: %d of %d runs written in %.0f s%n", name, written.size(), runs.size(), (System.nanoTime() - start) / 1e9);
        System.out.print(Summary.table(written));
        if (!failures.isEmpty())
        {
            System.out.println("failed runs:");
            failures.forEach(f -> System.out.println("  " + f));
            throw new BenchException(failures.size() + " of " + runs.size() + " runs failed");
        }
    }

    /** Each run of the plan in turn; a failed run is reported and the campaign goes on. */
    private static void runAll(final List<Plan.Run> runs, final String name, final String out, final int portBase,
        final String launcher, final long start, final List<Path> written, final List<String> failures)
    {
        for (int i = 0; i < runs.size(); i++)
        {
            final Plan.Run run = runs.get(i);
            final int port = freePortPair(portBase + 2 * (i % 50));
            final String label = String.format("[%d/%d %.0fs] %s %s %s%s/%s r%d", i + 1, runs.size(), (System.nanoTime() - start) / 1e9,
                run.scenario().id(), run.mode(), run.product().id(), run.engine() == null ? "" : " " + run.engine().label(), run.config(),
                run.repetition());
            System.out.println(label);
            try
            {
                written.add(runOne(run, name, out, port, launcher));
            }
            catch (final BenchException ex)
            {
                System.out.println("  FAILED: " + ex.getMessage());
                failures.add(label + ": " + ex.getMessage());
            }
        }
    }

    /** What the runs will share their CPUs with, of the kernel's memory monitors, or what the campaign switched off. */
    private static void noteDamon(final DamonPause damon)
    {
        if (damon != null)
        {
            System.out.println(damon.paused().isEmpty() ? "PAUSE_DAMON: no DAMON monitor runs here, none to switch off"
                : "PAUSE_DAMON: DAMON monitor " + String.join(", ", damon.paused())
                + " switched off for the campaign, back on when it ends");
            return;
        }
        final String schemes = MemoryBacking.damonSchemes(MemoryBacking.DAMON_KDAMONDS);
        if (!schemes.isEmpty())
        {
            System.out.println("note: a kernel memory monitor runs here (" + schemes + "); its time slices can keep paced runs "
                + "from being compared (threads off their CPUs for over 0.5% of the window). As root, make bench PAUSE_DAMON=1 "
                + "switches it off for the campaign.");
        }
    }

    /** A yes-or-no argument: true, yes or 1; false, no, 0 or empty (as make passes an unset variable). */
    static boolean yes(final String key, final String value)
    {
        return switch (value)
        {
            case "true", "yes", "1" -> true;
            case "false", "no", "0", "" -> false;
            default -> throw new BenchException("argument " + key + " takes true or false, not '" + value + "'");
        };
    }

    /** A FIX port and the control port after it, both free now (other builds on the machine may hold some). */
    private static int freePortPair(final int from)
    {
        for (int port = from; port < from + 400; port += 2)
        {
            if (free(port) && free(port + 1))
            {
                return port;
            }
        }
        throw new BenchException("no free pair of ports from " + from);
    }

    private static boolean free(final int port)
    {
        try (java.net.ServerSocket probe = new java.net.ServerSocket())
        {
            probe.setReuseAddress(true);
            probe.bind(new java.net.InetSocketAddress("127.0.0.1", port));
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static List<String> split(final String value)
    {
        return Arrays.stream(value.split("[,\\s]+")).filter(s -> !s.isBlank()).toList();
    }

    private static Path runOne(final Plan.Run run, final String campaign, final String out, final int port, final String launcher)
    {
        final List<String> common = new ArrayList<>(List.of("--scenario", run.scenario().id(), "--product", run.product().id(),
            "--config", run.config(), "--port", Integer.toString(port), "--launcher", launcher));
        if (run.engine() != null)
        {
            // That version's own engine.properties: a newer file may hold keys its engine does not know.
            common.addAll(List.of("--properties", fromCheckout(run.engine().properties(run.config())).toString()));
        }
        final List<String> server = Script.command("server", common, List.of("--bind", "127.0.0.1"));
        final List<String> clientArgs = new ArrayList<>();
        if (run.engine() != null)
        {
            // Two versions of one configuration in one campaign: the version goes in the run id.
            clientArgs.addAll(List.of("--run-id", run.scenario().id() + (run.scenario().canPace() ? "." + run.mode() : "") + "."
                + run.product().id() + "-" + run.engine().label() + "." + run.config() + ".r" + run.repetition()));
        }
        clientArgs.addAll(List.of("--host", "127.0.0.1", "--messages", Integer.toString(run.messages()),
            "--warmup", Integer.toString(run.warmup()), "--campaign", campaign, "--out", out, "--repetition",
            Integer.toString(run.repetition()), "--repetitions", Integer.toString(run.repetitions()), "--timeout", "600"));
        if (run.scenario().canPace())
        {
            clientArgs.addAll(List.of("--mode", run.mode()));
        }
        if (run.rate() > 0)
        {
            clientArgs.addAll(List.of("--rate", Integer.toString(run.rate())));
        }
        final List<String> client = Script.command("client", common, clientArgs);
        Process serverProcess = null;
        try
        {
            final Path serverLog = Files.createTempFile("fixlab-bench-server", ".log");
            serverProcess = process(server, run).start();
            if (!awaitReady(serverProcess, serverLog))
            {
                throw new BenchException("the server did not start: " + lastLine(serverLog));
            }
            final Process clientProcess = process(client, run).start();
            String written = null;
            String error = null;
            String last = "";
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(clientProcess.getInputStream(), StandardCharsets.UTF_8)))
            {
                for (String line = reader.readLine(); line != null; line = reader.readLine())
                {
                    last = line.isBlank() ? last : line;
                    if (line.startsWith("run written: "))
                    {
                        written = line.substring("run written: ".length());
                    }
                    else if (line.contains("error: "))
                    {
                        error = line.substring(line.indexOf("error: ") + 7);
                    }
                    else if (line.startsWith("  "))
                    {
                        System.out.println(line);
                    }
                }
            }
            final int status = clientProcess.waitFor();
            serverProcess.waitFor(10, TimeUnit.SECONDS);
            if (status != 0 || written == null)
            {
                throw new BenchException(failure(error, status, last, serverLog));
            }
            Files.deleteIfExists(serverLog);
            return Path.of(written);
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot start " + server.get(0) + ": " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted");
        }
        finally
        {
            if (serverProcess != null && serverProcess.isAlive())
            {
                serverProcess.destroy();
            }
        }
    }

    /**
     * A file of this checkout as a path relative to it (the campaign runs from the repository's root): the runs
     * record their commands for the release page, which a reader pastes into a clone somewhere else.
     */
    static Path fromCheckout(final Path file)
    {
        final Path root = Path.of("").toAbsolutePath();
        final Path absolute = file.toAbsolutePath().normalize();
        return absolute.startsWith(root) ? root.relativize(absolute) : file;
    }

    private static ProcessBuilder process(final List<String> command, final Plan.Run run)
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (run.engine() != null)
        {
            builder.environment().putAll(run.engine().environment());
        }
        return builder;
    }

    /** Copies the server's output to its log until "server ready" (true) or its end (false). */
    private static boolean awaitReady(final Process server, final Path log) throws IOException
    {
        final BufferedReader reader = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        final AtomicBoolean ready = new AtomicBoolean();
        for (String line = reader.readLine(); line != null; line = reader.readLine())
        {
            Files.writeString(log, line + "\n", java.nio.file.StandardOpenOption.APPEND);
            if (line.startsWith("server ready"))
            {
                ready.set(true);
                break;
            }
        }
        final Thread drain = new Thread(() ->
        {
            try
            {
                for (String line = reader.readLine(); line != null; line = reader.readLine())
                {
                    Files.writeString(log, line + "\n", java.nio.file.StandardOpenOption.APPEND);
                }
            }
            catch (final IOException ex)
            {
                // the server has gone
            }
        }, "server-log");
        drain.setDaemon(true);
        drain.start();
        return ready.get();
    }

    /**
     * Why a run failed: the client's error, or its exit status and last line (a JVM that dies of an OutOfMemoryError
     * prints no "error: " line), then the server's side. The client often only sees the server go (the control
     * channel closed), and the server's log, kept when a run fails, says why.
     */
    static String failure(final String clientError, final int clientStatus, final String clientLastLine, final Path serverLog)
    {
        final String client = clientError != null ? clientError
            : "client exited with status " + clientStatus + " (its last line: " + clientLastLine + ")";
        return client + "; server: " + lastLine(serverLog);
    }

    private static String lastLine(final Path log)
    {
        try
        {
            final List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.startsWith("SLF4J")).toList();
            final String first = lines.stream().filter(l -> l.contains("error:") || l.contains("Exception")).findFirst()
                .orElse(lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1));
            return first + " (server log: " + log + ")";
        }
        catch (final IOException ex)
        {
            return "(no log)";
        }
    }
}
