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
            final int n = options.messages;
            final int w = options.warmup;
            final long[] send = new long[n];
            final long[] latency = new long[n];
            final long[] intended = new long[n];
            final long base = options.scenario.isInternal() ? driver.sendNanos[w] : driver.intendedNanos[w];
            for (int j = 0; j < n; j++)
            {
                final int k = w + j;
                send[j] = driver.sendNanos[k] - base;
                latency[j] = switch (options.scenario)
                {
                    case INTERNAL_SEND -> driver.writeNanos[k] - driver.sendNanos[k];
                    case INTERNAL_RECEIVE -> server.get("t4")[k] - server.get("t3")[k];
                    case INTERNAL_RECEIVE_SEND -> server.get("t2")[k] - server.get("t3")[k];
                    case INTERNAL_SEND_RECEIVE -> server.get("t4")[k] - driver.sendNanos[k];
                    default -> replies.callbackNanos(k) - driver.sendNanos[k];
                };
                intended[j] = options.scenario.isInternal() || !options.paced() ? latency[j] : replies.callbackNanos(k) - driver.intendedNanos[k];
                if (latency[j] < 0)
                {
                    throw new BenchException(options.scenario.id() + ": message " + j + " has a negative latency (" + latency[j]
                        + " ns); a timestamp was not taken");
                }
            }
            results = Samples.writeLatency(dir, send, latency, intended, n);
        }
        final double messages = options.messages;
        results.put("allocated_bytes_per_message", driver.allocatedBytes < 0 ? null : round(driver.allocatedBytes / messages));
        final long[] allocated = server.get("allocated");
        results.put("server_allocated_bytes_per_message", allocated == null || allocated[0] < 0 ? null : round(allocated[0] / (double)allocated[1]));
        results.put("allocation_scope", "ThreadMXBean#getThreadAllocatedBytes over the measured messages: client = the benchmark thread "
            + "(sends, and for polled products receives); server = the thread running the application callbacks");
        return results;
    }

    private static double round(final double v)
    {
        return Math.round(v * 1000) / 1000.0;
    }
}
