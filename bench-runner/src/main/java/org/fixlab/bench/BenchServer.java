package org.fixlab.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.control.ControlChannel;
import org.fixlab.bench.run.HardwareProbe;
import org.fixlab.bench.run.Heap;
import org.fixlab.bench.run.Json;
import org.fixlab.bench.run.LoadGeneratorPinning;
import org.fixlab.bench.run.Stalls;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;

/**
 * The server role of one run: binds the FIX and control ports, learns the workload from the client,
 * answers/counts/routes on its main thread (polling the product where it can be polled), then sends
 * back what it measured and exits.
 */
final class BenchServer
{
    private BenchServer()
    {
    }

    static void run(final Options options)
    {
        final ProductConfig config = options.product.configure(options);
        checkFree(options.bind, options.port);
        final ServerSocket controlServer = ControlChannel.bind(options.bind, options.controlPort);
        System.out.printf("server ready: %s %s/%s on %s:%d (control port %d)%n", options.scenario.id(), options.product.id(),
            options.config, options.bind, options.port, options.controlPort);
        System.out.flush();
        try (ControlChannel control = ControlChannel.accept(controlServer, options.timeoutSeconds))
        {
            closeQuietly(controlServer);
            final Map<String, String> hello = control.readMap();
            final String mismatch = mismatch(options, hello);
            if (mismatch != null)
            {
                control.sendMap(Map.of("error", mismatch));
                throw new BenchException(mismatch);
            }
            final int warmup = Integer.parseInt(hello.get("warmup"));
            final int messages = Integer.parseInt(hello.get("messages"));
            final ServerRecorder recorder = new ServerRecorder(warmup, messages, options.scenario.isInternal(),
                options.scenario == Scenario.THROUGHPUT);
            final Map<String, Object> hardware = HardwareProbe.probe("server", control.peerAddress());
            try (ServerPeer peer = config.server(options.scenario, recorder))
            {
                peer.listen(options.bind, options.port);
                // after listen, so that the threads the product starts there keep every CPU: only this thread, which
                // polls the product, is kept off the load generator's CPU
                try (LoadGeneratorPinning placement = HardwareProbe.peerOnThisHost(hardware)
                    ? LoadGeneratorPinning.keepServerThreadOff(peer.threadPlacement())
                    : LoadGeneratorPinning.none(peer.threadPlacement()))
                {
                    serve(options, config, control, peer, recorder, Json.write(hardware), placement.placement());
                }
            }
        }
        System.out.println("server done: " + options.scenario.id() + " " + options.product.id() + "/" + options.config);
    }

    /** Tells the client the server is ready, then polls the product until the client has its answers and results. */
    private static void serve(final Options options, final ProductConfig config, final ControlChannel control, final ServerPeer peer,
        final ServerRecorder recorder, final String hardware, final String placement)
    {
        final Map<String, String> ready = new LinkedHashMap<>();
        ready.put("hardware", hardware);
        ready.put("thread", placement);
        // the product or the runner pinned this thread, or not: the client's load generator keeps off its CPU
        ready.put("thread_cpu", Integer.toString(LoadGeneratorPinning.pinnedCpu()));
        ready.put("address", control.localAddress());
        // on one host, the client leaves this process out of the CPU time the rest of the host took
        ready.put("pid", Long.toString(ProcessHandle.current().pid()));
        final IdleStrategy idle = config.serverIdle();
        // where this thread answers and never sleeps, a paced run's stalls of the server are gaps in its clock readings;
        // made before the client is told to start, as it switches on this JVM's safepoint log (see JvmPauses)
        final Stalls stalls = options.paced() && peer.answersOnThisThread() && Stalls.neverSleeps(idle) ? new Stalls() : null;
        Heap.promoteLongLived();
        control.sendMap(ready);
        control.watchForDone();
        recorder.start(System.nanoTime());
        final long deadline = System.nanoTime() + options.timeoutSeconds * 1_000_000_000L;
        while (!(recorder.complete() && control.peerDone()))
        {
            if (stalls != null)
            {
                stalls.tick(System.nanoTime());
            }
            idle.idle(peer.poll());
            if (control.peerGone())
            {
                throw new BenchException("the client went away after " + recorder.requests() + " of " + recorder.total() + " orders");
            }
            if (System.nanoTime() > deadline)
            {
                throw new BenchException("timed out after " + options.timeoutSeconds + " s with " + recorder.requests() + " of "
                    + recorder.total() + " orders");
            }
        }
        final Map<String, long[]> arrays = new LinkedHashMap<>(recorder.arrays());
        if (stalls != null)
        {
            stalls.finish(System.nanoTime());
            arrays.putAll(stalls.arrays());
        }
        control.sendArrays(arrays);
        // the client closes first; keep answering session traffic until it does
        final long linger = System.nanoTime() + 2_000_000_000L;
        while (!control.peerGone() && System.nanoTime() < linger)
        {
            idle.idle(peer.poll());
        }
    }

    private static String mismatch(final Options options, final Map<String, String> hello)
    {
        final String mine = options.scenario.id() + " " + options.product.id() + "/" + options.config;
        final String theirs = hello.get("scenario") + " " + hello.get("product") + "/" + hello.get("config");
        return mine.equals(theirs) ? null : "the server runs " + mine + " but the client asked for " + theirs;
    }

    /** The FIX port is only bound once the client has said what to run; refuse a port in use at start. */
    private static void checkFree(final String bind, final int port)
    {
        try (ServerSocket probe = new ServerSocket())
        {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(bind, port));
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot listen on " + bind + ":" + port + " (" + ex.getMessage() + "; port in use?)");
        }
    }

    private static void closeQuietly(final ServerSocket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            // no more clients are expected
        }
    }
}
