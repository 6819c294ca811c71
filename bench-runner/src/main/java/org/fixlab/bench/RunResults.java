package org.fixlab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.fixlab.bench.client.ClientDriver;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.run.Samples;

/**
 * Turns the timestamps both sides took into the one quantity a scenario measures, per measured
 * message (the warm-up is dropped), and writes the samples.
 */
final class RunResults
{
    private RunResults()
    {
    }

    static String what(final Scenario scenario)
    {
        return switch (scenario)
        {
            case RTT_ECHO -> "round trip on the client: t1 before sending the order -> t4 in the callback of its execution report";
            case THROUGHPUT -> "one-way stream counted by the server from the end of the warm-up: elapsed time per messages received";
            case INTERNAL_SEND -> "sender (client): t1 before the send call -> t2 just before the socket write of that order";
            case INTERNAL_RECEIVE -> "receiver (server): t3 socket read of the order's bytes -> t4 application callback";
            case INTERNAL_RECEIVE_SEND -> "server: t3 socket read of the order -> t2 socket write of its execution report";
            case INTERNAL_SEND_RECEIVE -> "t1 before the client's send -> t4 in the server's callback (one machine, one clock)";
            case CONVERSION -> "client: t1 before sending the FIX 4.2 order on session 1 -> t4 callback of the converted FIX 4.4 order "
                + "on session 2 (routed by the server); both ends on the client's clock";
        };
    }

    /** The measured samples of a latency run: when each order was sent (from the first), its latency, and its latency from when it was due. */
    record Latencies(long[] sendNs, long[] latency, long[] fromIntended)
    {
    }

    static Map<String, Object> write(final Path dir, final Options options, final ClientDriver driver, final Replies replies,
        final Map<String, long[]> server) throws IOException
    {
        final Map<String, Object> results;
        if (options.scenario == Scenario.THROUGHPUT)
        {
            results = Samples.writeThroughput(dir, server.get("elapsed_ns"), server.get("messages"));
        }
        else
        {
            final long[] callbacks = new long[options.warmup + options.messages];
            for (int i = 0; i < callbacks.length; i++)
            {
                callbacks[i] = i < replies.count() ? replies.callbackNanos(i) : 0;
            }
            final Latencies l = latencies(options.scenario, options.paced(), options.warmup, options.messages, driver.sendNanos,
                driver.intendedNanos, driver.writeNanos, callbacks, server);
            results = Samples.writeLatency(dir, l.sendNs(), l.latency(), l.fromIntended(), options.messages);
        }
        final double messages = options.messages;
        results.put("allocated_bytes_per_message", driver.allocatedBytes < 0 ? null : round(driver.allocatedBytes / messages));
        final long[] allocated = server.get("allocated");
        final boolean serverCounted = allocated != null && allocated[0] >= 0;
        results.put("server_allocated_bytes_per_message", serverCounted ? round(allocated[0] / (double)allocated[1]) : null);
        // the totals too: at three decimals a million messages round anything under 500 bytes to 0.000
        results.put("allocated_bytes", driver.allocatedBytes < 0 ? null : driver.allocatedBytes);
        results.put("server_allocated_bytes", serverCounted ? allocated[0] : null);
        results.put("allocation_scope", "ThreadMXBean#getThreadAllocatedBytes over the measured messages: client = the benchmark thread "
            + "(sends, and for polled products receives); server = the thread running the application callbacks");
        return results;
    }

    /**
     * The scenario's latency per measured message (the {@code warmup} first are dropped), from the client's
     * timestamps (t1 send, due time, t2 write, t4 reply callback) and the server's arrays (t2, t3, t4 by order).
     * Send times count from the first measured send, or from when it was due for paced round trips.
     */
    static Latencies latencies(final Scenario scenario, final boolean paced, final int warmup, final int n, final long[] sendNanos,
        final long[] intendedNanos, final long[] writeNanos, final long[] callbackNanos, final Map<String, long[]> server)
    {
        final long[] send = new long[n];
        final long[] latency = new long[n];
        final long[] intended = new long[n];
        final long base = scenario.isInternal() ? sendNanos[warmup] : intendedNanos[warmup];
        for (int j = 0; j < n; j++)
        {
            final int k = warmup + j;
            send[j] = sendNanos[k] - base;
            latency[j] = switch (scenario)
            {
                case INTERNAL_SEND -> writeNanos[k] - sendNanos[k];
                case INTERNAL_RECEIVE -> server.get("t4")[k] - server.get("t3")[k];
                case INTERNAL_RECEIVE_SEND -> server.get("t2")[k] - server.get("t3")[k];
                case INTERNAL_SEND_RECEIVE -> server.get("t4")[k] - sendNanos[k];
                default -> callbackNanos[k] - sendNanos[k];
            };
            intended[j] = scenario.isInternal() || !paced ? latency[j] : callbackNanos[k] - intendedNanos[k];
            if (latency[j] < 0)
            {
                throw new BenchException(scenario.id() + ": message " + j + " has a negative latency (" + latency[j]
                    + " ns); a timestamp was not taken");
            }
        }
        return new Latencies(send, latency, intended);
    }

    private static double round(final double v)
    {
        return Math.round(v * 1000) / 1000.0;
    }
}
