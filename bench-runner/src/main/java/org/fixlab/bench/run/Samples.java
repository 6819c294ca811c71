package org.fixlab.bench.run;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * Writes the samples of a run in the data contract's format and computes the summary the manifest
 * states. Percentiles are taken from the exact sorted samples with the same rule as the pipeline's
 * quantile_disc (the ceil(n q)-th value), so the pipeline's recomputation agrees exactly.
 */
public final class Samples
{
    private Samples()
    {
    }

    /** latency.csv, latency.hgrm; returns the results block. Arrays hold n measured samples. */
    public static Map<String, Object> writeLatency(final Path dir, final long[] sendNs, final long[] latency, final long[] fromIntended,
        final int n) throws IOException
    {
        final Histogram histogram = new Histogram(3);
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("latency.csv"), StandardCharsets.US_ASCII))
        {
            w.write("seq,send_ns,latency_ns,latency_from_intended_ns\n");
            final StringBuilder line = new StringBuilder(64);
            for (int i = 0; i < n; i++)
            {
                if (latency[i] < 0 || fromIntended[i] < latency[i] || sendNs[i] < 0)
                {
                    throw new IllegalStateException("sample " + i + " is inconsistent: send_ns " + sendNs[i] + ", latency "
                        + latency[i] + ", from intended " + fromIntended[i]);
                }
                histogram.recordValue(latency[i]);
                line.setLength(0);
                line.append(i).append(',').append(sendNs[i]).append(',').append(latency[i]).append(',').append(fromIntended[i]).append('\n');
                w.append(line);
            }
        }
        try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve("latency.hgrm")), false, StandardCharsets.US_ASCII))
        {
            histogram.outputPercentileDistribution(out, 1000.0);
        }
        final long[] sorted = Arrays.copyOf(latency, n);
        Arrays.sort(sorted);
        final long[] intendedSorted = Arrays.copyOf(fromIntended, n);
        Arrays.sort(intendedSorted);
        double sum = 0;
        for (int i = 0; i < n; i++)
        {
            sum += sorted[i];
        }
        final Map<String, Object> results = new LinkedHashMap<>();
        results.put("samples", n);
        results.put("min_ns", sorted[0]);
        results.put("max_ns", sorted[n - 1]);
        results.put("mean_ns", sum / n);
        results.put("p50_ns", quantile(sorted, 0.5));
        results.put("p90_ns", quantile(sorted, 0.9));
        results.put("p99_ns", quantile(sorted, 0.99));
        results.put("p99_9_ns", quantile(sorted, 0.999));
        results.put("p50_from_intended_ns", quantile(intendedSorted, 0.5));
        results.put("p99_from_intended_ns", quantile(intendedSorted, 0.99));
        results.put("max_from_intended_ns", intendedSorted[n - 1]);
        return results;
    }

    public static long quantile(final long[] sorted, final double q)
    {
        final int index = (int)Math.ceil(sorted.length * q) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** throughput.csv (cumulative progress points); returns the results block. */
    public static Map<String, Object> writeThroughput(final Path dir, final long[] elapsedNs, final long[] messages) throws IOException
    {
        if (elapsedNs.length == 0 || elapsedNs[elapsedNs.length - 1] <= 0)
        {
            throw new IllegalStateException("the server recorded no progress point after the warm-up");
        }
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("throughput.csv"), StandardCharsets.US_ASCII))
        {
            w.write("elapsed_ns,messages\n");
            for (int i = 0; i < elapsedNs.length; i++)
            {
                w.write(elapsedNs[i] + "," + messages[i] + "\n");
            }
        }
        final long last = messages[messages.length - 1];
        final long elapsed = elapsedNs[elapsedNs.length - 1];
        final Map<String, Object> results = new LinkedHashMap<>();
        results.put("messages", last);
        results.put("messages_per_second", last * 1e9 / elapsed);
        results.put("elapsed_ns", elapsed);
        results.put("ns_per_message", (double)elapsed / last);
        return results;
    }
}
