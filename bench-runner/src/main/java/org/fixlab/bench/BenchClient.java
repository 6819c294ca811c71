package org.fixlab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fixlab.bench.client.ClientDriver;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.control.ControlChannel;
import org.fixlab.bench.run.CompilerThreads;
import org.fixlab.bench.run.CoreToCoreProbe;
import org.fixlab.bench.run.OtherTasks;
import org.fixlab.bench.run.HardwareProbe;
import org.fixlab.bench.run.Heap;
import org.fixlab.bench.run.Json;
import org.fixlab.bench.run.LoadGeneratorPinning;
import org.fixlab.bench.run.ProductInfo;
import org.fixlab.bench.run.RunFolder;
import org.fixlab.bench.server.CpuReference;

/**
 * The client role of one run: asks the server what it runs (and its hardware), drives the scenario,
 * collects the server's measurements, and writes the run folder of the data contract.
 */
final class BenchClient
{
    private static final Pattern HOSTNAME = Pattern.compile("\"hostname\": \"([^\"]*)\"");

    private BenchClient()
    {
    }

    static Path run(final Options options)
    {
        final ProductConfig config = options.product.configure(options);
        final RunFolder folder = new RunFolder(Path.of(options.out, options.campaign), options.runId());
        // before the server has anything to run: it waits in accept until the control channel connects
        final CoreToCoreProbe cpuDistance = CoreToCoreProbe.forThisProcess();
        final long cpuDistanceBefore = cpuDistance == null ? CoreToCoreProbe.NOT_MEASURED : cpuDistance.measure();
        final long connectDeadline = System.nanoTime() + Math.min(options.timeoutSeconds, 15) * 1_000_000_000L;
        try (ControlChannel control = ControlChannel.connect(options.host, options.controlPort, connectDeadline))
        {
            final Map<String, String> hello = new LinkedHashMap<>();
            hello.put("scenario", options.scenario.id());
            hello.put("product", options.product.id());
            hello.put("config", options.config);
            hello.put("messages", Integer.toString(options.messages));
            hello.put("warmup", Integer.toString(options.warmup));
            control.sendMap(hello);
            final Map<String, String> server = control.readMap();
            if (server.containsKey("error"))
            {
                throw new BenchException(server.get("error"));
            }
            final Map<String, Object> clientHardware = HardwareProbe.probe("client", options.host);
            final boolean loopback = HardwareProbe.peerOnThisHost(clientHardware);
            if (options.scenario == Scenario.INTERNAL_SEND_RECEIVE && !loopback)
            {
                throw new BenchException("internal-send-receive compares the sender's and the receiver's clocks: run it with server and "
                    + "client on one machine (--host 127.0.0.1)");
            }
            final int total = options.warmup + options.messages;
            final Replies replies = new Replies(total);
            final String started;
            final ClientDriver driver;
            final Map<String, long[]> serverData;
            final String placement;
            final String method;
            final Map<String, Object> sockets;
            final String tls;
            // the CPUs this thread may use before the product starts, which may pin it (see LoadGeneratorPinning#pin)
            final BitSet runnerCpus = LoadGeneratorPinning.cpusOfThisThread();
            try (ClientPeer peer = config.client(options.scenario, replies))
            {
                peer.connect(options.host, options.port, System.nanoTime() + Math.min(options.timeoutSeconds, 30) * 1_000_000_000L);
                final int serverCpu = Integer.parseInt(server.getOrDefault("thread_cpu", "-1"));
                try (LoadGeneratorPinning pinning = loopback
                    ? LoadGeneratorPinning.pin(serverCpu, runnerCpus, peer.threadPlacement())
                    : LoadGeneratorPinning.none(peer.threadPlacement()))
                {
                    placement = pinning.placement();
                    method = peer.timestampMethod();
                    sockets = peer.socketBuffers();
                    tls = peer.tlsSession();
                    // on one host the server's process is the benchmark's too; on two, the server is on the other
                    final long localServer = loopback ? Long.parseLong(server.get("pid")) : -1;
                    driver = new ClientDriver(options, peer, replies, config.clientIdle(), OtherTasks.forThisHost(localServer),
                        CompilerThreads.forThisHost(localServer));
                    Heap.promoteLongLived();
                    started = now();
                    if (options.scenario == Scenario.THROUGHPUT)
                    {
                        driver.runStream(control);
                    }
                    else
                    {
                        driver.runRequestReply();
                        control.sendDone();
                    }
                    serverData = control.readArrays();
                }
            }
            final String finished = now();
            final String clientAddress = control.localAddress();
            // the server lets go of the run when the control channel closes; then the CPUs are free to measure again
            control.close();
            if (cpuDistance != null)
            {
                clientHardware.put("core_to_core", cpuDistance.manifestEntry(cpuDistanceBefore, afterServerExit(cpuDistance)));
            }
            // the server's clock is this host's only on one host
            final Map<String, Object> stalls = driver.stallsEntry(loopback ? serverData : Map.of());
            if (stalls != null)
            {
                clientHardware.put("stalls", stalls);
            }
            // the stream's receiving thread runs on this host only on one host
            final Map<String, Object> reference = loopback ? CpuReference.manifestEntry(serverData.get("cpu_reference_ns")) : null;
            if (reference != null)
            {
                clientHardware.put("cpu_reference", reference);
            }
            // the stream's sending thread runs on this host, on one host or two
            final Map<String, Object> senderReference = driver.senderReferenceEntry();
            if (senderReference != null)
            {
                clientHardware.put("sender_cpu_reference", senderReference);
            }
            final Map<String, Object> others = driver.otherTasksEntry();
            if (others != null)
            {
                clientHardware.put("other_tasks", others);
            }
            final Map<String, Object> compilers = driver.compilersEntry();
            if (compilers != null)
            {
                clientHardware.put("compilers", compilers);
            }
            final Path dir = folder.open();
            try
            {
                final Map<String, Object> results = RunResults.write(dir, options, driver, replies, serverData);
                final Map<String, Object> manifest = manifest(options, config, started, finished, server, clientHardware, loopback,
                    clientAddress, placement, method, sockets, tls, results);
                java.nio.file.Files.writeString(dir.resolve("manifest.json"), Json.write(manifest));
                return folder.commit();
            }
            catch (final IOException | RuntimeException ex)
            {
                folder.deleteQuietly();
                if (ex instanceof BenchException bench)
                {
                    throw bench;
                }
                throw new BenchException("cannot write the run folder: " + ex.getMessage(), ex);
            }
        }
    }

    /**
     * The second reading, once the server has stopped polling: it notices the closed control channel within a duty
     * cycle and closes its engine, which the pause covers (the probe refuses a reading it finds disturbed).
     */
    private static long afterServerExit(final CoreToCoreProbe probe)
    {
        try
        {
            Thread.sleep(SERVER_EXIT_PAUSE_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return CoreToCoreProbe.NOT_MEASURED;
        }
        return probe.measure();
    }

    private static final long SERVER_EXIT_PAUSE_MS = 200;

    private static String now()
    {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    }

    private static Map<String, Object> manifest(final Options options, final ProductConfig config, final String started,
        final String finished, final Map<String, String> server, final Map<String, Object> clientHardware, final boolean loopback,
        final String clientAddress, final String clientPlacement, final String method, final Map<String, Object> sockets,
        final String tls, final Map<String, Object> results)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema_version", 2);
        m.put("run_id", options.runId());
        m.put("campaign", options.campaign);
        m.put("started_at", started);
        m.put("finished_at", finished);
        final Map<String, Object> product = new LinkedHashMap<>(options.product.info());
        product.put("label", options.product.label());
        product.put("order", Products.order(options.product));
        product.put("role", options.product.role());
        m.put("product", product);
        // The harness that measured it (this runner's build); the product block says which engine it drove.
        m.put("harness", Map.of("commit", ProductInfo.gitCommit()));
        m.put("scenario", options.scenario.id());
        m.put("repetition", options.repetition);
        m.put("repetitions", options.repetitions);
        final Map<String, Object> configuration = config.manifestBlock(sockets);
        configuration.put("client_thread", clientPlacement);
        configuration.put("server_thread", server.get("thread"));
        if (tls != null)
        {
            // what the handshake settled on, which the configuration's settings only bound (tlsCipherSuites empty: the JDK's)
            final String[] protocolAndSuite = tls.split(" ", 2);
            final Map<String, Object> block = new LinkedHashMap<>();
            block.put("protocol", protocolAndSuite[0]);
            block.put("cipher_suite", protocolAndSuite.length == 2 ? protocolAndSuite[1] : "");
            configuration.put("tls", block);
        }
        if (!options.launcher.isBlank())
        {
            configuration.put("launcher", options.launcher);
        }
        m.put("configuration", configuration);
        final Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("mode", options.mode);
        workload.put("messages", options.messages);
        workload.put("warmup_messages", options.warmup);
        workload.put("rate", options.paced() ? options.rate : null);
        workload.put("message_type", "D");
        workload.put("bytes", Orders.requestBytes(options.scenario));
        workload.put("fix_version", options.scenario == Scenario.CONVERSION ? "FIX.4.2 -> FIX.4.4" : Orders.FIX42);
        workload.put("answer", switch (options.scenario.serverMode())
        {
            case ECHO -> "8 (ExecutionReport)";
            case ROUTE -> "D (NewOrderSingle, FIX 4.4, on the second session)";
            default -> "none";
        });
        m.put("workload", workload);
        final String serverHardware = server.get("hardware");
        final Matcher hostname = HOSTNAME.matcher(serverHardware);
        final Map<String, Object> topology = new LinkedHashMap<>();
        topology.put("kind", loopback ? "loopback" : "two-host");
        topology.put("hosts", List.of(
            host("server", hostname.find() ? hostname.group(1) : "unknown", options.host),
            host("client", String.valueOf(clientHardware.get("hostname")), clientAddress)));
        m.put("topology", topology);
        m.put("hardware", Map.of("hosts", List.of(new Json.Raw(serverHardware), clientHardware)));
        m.put("reproduce", reproduce(options));
        m.put("measurement", Map.of("what", RunResults.what(options.scenario), "timestamps", method,
            "clock", "System.nanoTime() (CLOCK_MONOTONIC); cross-process differences only on one machine"));
        m.put("results", results);
        return m;
    }

    private static Map<String, Object> host(final String role, final String hostname, final String address)
    {
        final Map<String, Object> h = new LinkedHashMap<>();
        h.put("role", role);
        h.put("hostname", hostname);
        h.put("address", address);
        return h;
    }

    private static Map<String, Object> reproduce(final Options options)
    {
        final String prefix = options.launcher.isBlank() ? "" : "LAUNCHER='" + options.launcher + "' ";
        final String server = prefix + options.scenario.script("server");
        final String client = prefix + options.scenario.script("client");
        final Map<String, Object> r = new LinkedHashMap<>();
        r.put("commands", List.of(server + options.serverArguments("127.0.0.1"), client + options.clientArguments("127.0.0.1")));
        r.put("roles", List.of("server (start first; it serves one run and exits)", "client (writes the run folder)"));
        r.put("two_host_commands", List.of(server + options.serverArguments("0.0.0.0"),
            client + options.clientArguments("<server address>")));
        r.put("build", "make build-java");
        return r;
    }
}
