package org.fixlab.bench.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.ObjectName;

/**
 * This JVM's safepoints, a garbage collection's pause among them: while one lasts every Java thread of the process
 * stands still, the benchmark's thread too, and off its CPU. So a paced run's steady-state rule, which takes a
 * thread's time off its CPU for the machine's, would take a pause for the machine's as well, and refuse the run of a
 * product that allocates (fixlab over TLS, where the JDK's SSLEngine allocates 2.6 KB a message, and the client JVM
 * collected every 1-3 s in pauses of 0.8-4.4 ms) as "the host's", where the tail is the product's own and the figures
 * must show it.
 *
 * <p>How: HotSpot's unified logging of safepoints, switched on from inside the process through the
 * DiagnosticCommand MBean ({@code VM.log}, as {@code jcmd} would), into a file of its own, each line stamped with
 * {@code timenanos}, the clock of {@link System#nanoTime()}. The VM thread writes a line as each safepoint ends; the
 * benchmark's threads do nothing for it. The file is read once the run is over.
 */
public final class JvmPauses
{
    /** A safepoint's line: its end on System.nanoTime()'s clock, and how long it took from the request to the end. */
    private static final Pattern SAFEPOINT = Pattern.compile("^\\[(\\d+)ns\\] Safepoint \".*Total: (\\d+) ns");

    private final Path file;
    private Map<String, long[]> arrays;

    private JvmPauses(final Path file)
    {
        this.file = file;
    }

    /**
     * Starts logging this JVM's safepoints, or returns null where this JVM cannot (not HotSpot, no temporary folder);
     * the run then goes on without them, as it did before runners read them.
     */
    public static JvmPauses start()
    {
        try
        {
            // a file of a new folder: the log would move a file already there aside, and rotate its own (filecount=0)
            final Path folder = Files.createTempDirectory("fixlab-safepoints-");
            folder.toFile().deleteOnExit();
            final Path file = folder.resolve("safepoints.log");
            file.toFile().deleteOnExit();
            final String[] arguments = {"output=file=" + file, "output_options=filecount=0", "what=safepoint=info",
                "decorators=timenanos"};
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "vmLog", new Object[] {arguments}, new String[] {String[].class.getName()});
            return new JvmPauses(file);
        }
        catch (final Exception | LinkageError ex)
        {
            System.err.println("this JVM's safepoints are not logged (" + ex + "): a paced run's verdict counts its "
                + "pauses as the machine's");
            return null;
        }
    }

    /**
     * The safepoints so far, oldest first, as the server sends them to the client: {@code pause_ends} (on
     * System.nanoTime()'s clock) and {@code pause_lengths}; empty where the file cannot be read. Read once: call it after
     * the measured window.
     */
    public Map<String, long[]> arrays()
    {
        if (arrays == null)
        {
            arrays = read(file);
        }
        return arrays;
    }

    static Map<String, long[]> read(final Path file)
    {
        try
        {
            final Map<String, long[]> read = parse(Files.readAllLines(file, StandardCharsets.UTF_8));
            Files.deleteIfExists(file);
            Files.deleteIfExists(file.getParent());
            return read;
        }
        catch (final IOException ex)
        {
            System.err.println("cannot read this JVM's safepoints from " + file + ": " + ex.getMessage());
            return Map.of();
        }
    }

    /** The safepoints among unified-logging lines (other lines are left out). */
    static Map<String, long[]> parse(final List<String> lines)
    {
        final List<long[]> pauses = new ArrayList<>();
        for (final String line : lines)
        {
            final Matcher matcher = SAFEPOINT.matcher(line);
            if (matcher.find())
            {
                pauses.add(new long[] {Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2))});
            }
        }
        final Map<String, long[]> arrays = new LinkedHashMap<>();
        arrays.put("pause_ends", pauses.stream().mapToLong(pause -> pause[0]).toArray());
        arrays.put("pause_lengths", pauses.stream().mapToLong(pause -> pause[1]).toArray());
        return arrays;
    }

    /**
     * The pauses of one or more JVMs on one host, as the time they cover, overlapping ones merged: a thread of either
     * process may stand still while the other's pause runs, its collector's threads then taking both CPUs of a 2-CPU
     * host. Null where none of the maps holds pauses (runners before these were read, or a JVM that could not log them).
     */
    @SafeVarargs
    public static Intervals union(final Map<String, long[]>... sides)
    {
        final List<long[]> spans = new ArrayList<>();
        boolean known = false;
        for (final Map<String, long[]> side : sides)
        {
            final long[] ends = side == null ? null : side.get("pause_ends");
            final long[] lengths = side == null ? null : side.get("pause_lengths");
            if (ends == null || lengths == null || ends.length != lengths.length)
            {
                continue;
            }
            known = true;
            for (int i = 0; i < ends.length; i++)
            {
                spans.add(new long[] {ends[i] - lengths[i], ends[i]});
            }
        }
        if (!known)
        {
            return null;
        }
        spans.sort((a, b) -> Long.compare(a[0], b[0]));
        final List<long[]> merged = new ArrayList<>();
        for (final long[] span : spans)
        {
            final long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && span[0] <= last[1])
            {
                last[1] = Math.max(last[1], span[1]);
            }
            else
            {
                merged.add(span.clone());
            }
        }
        return new Intervals(merged.stream().mapToLong(span -> span[0]).toArray(),
            merged.stream().mapToLong(span -> span[1]).toArray());
    }

    /** One JVM's pauses' time within the window from {@code fromNanos} to {@code toNanos}, or -1 where not known. */
    public static long within(final Map<String, long[]> arrays, final long fromNanos, final long toNanos)
    {
        final Intervals own = union(arrays);
        return own == null ? -1 : own.overlap(fromNanos, toNanos);
    }

    /** Disjoint spans of time, in order: from {@code starts[i]} to {@code ends[i]}. */
    public record Intervals(long[] starts, long[] ends)
    {
        /** How much of the time from {@code fromNanos} to {@code toNanos} the spans cover. */
        public long overlap(final long fromNanos, final long toNanos)
        {
            long covered = 0;
            for (int i = 0; i < starts.length && starts[i] < toNanos; i++)
            {
                covered += Math.max(0, Math.min(ends[i], toNanos) - Math.max(starts[i], fromNanos));
            }
            return covered;
        }
    }
}
