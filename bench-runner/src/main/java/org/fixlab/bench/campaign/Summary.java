package org.fixlab.bench.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The table a campaign ends with, one row per run, read back from the manifests it wrote. */
final class Summary
{
    private Summary()
    {
    }

    static String table(final List<Path> runs)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-58s %12s %12s %14s %12s %13s%n", "run", "p50 us", "p99 us", "msg/s", "alloc B/msg",
            "cpus ns (*)"));
        for (final Path run : runs)
        {
            String text;
            try
            {
                text = Files.readString(run.resolve("manifest.json"));
            }
            catch (final IOException ex)
            {
                text = "";
            }
            sb.append(String.format("%-58s %12s %12s %14s %12s %13s%n", run.getFileName(), micros(text, "p50_ns"), micros(text, "p99_ns"),
                number(text, "messages_per_second", "%,.0f"), number(text, "allocated_bytes_per_message", "%.2f"),
                number(text, "before_ns", "%.0f") + "/" + number(text, "after_ns", "%.0f")));
        }
        sb.append("(*) a cache line's round trip between the client's two CPUs before/after the run (core_to_core in the "
            + "manifest): runs whose readings differ, or whose nearer one is over twice or under half the campaign's "
            + "median, are not compared\n");
        return sb.toString();
    }

    private static String micros(final String text, final String key)
    {
        final Double v = value(text, key);
        return v == null ? "" : String.format("%.1f", v / 1000.0);
    }

    private static String number(final String text, final String key, final String format)
    {
        final Double v = value(text, key);
        return v == null ? "" : String.format(format, v);
    }

    private static Double value(final String text, final String key)
    {
        final Matcher m = Pattern.compile("\"" + key + "\": ([0-9.]+)").matcher(text);
        return m.find() ? Double.valueOf(m.group(1)) : null;
    }
}
