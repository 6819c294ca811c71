package org.fixlab.engine.codec;

import java.io.File;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Two engine versions' codec timed in alternating slices in one JVM ({@code make codec-ab BASE=0.2.0}): what
 * {@link CodecBenchmark} measures, as a comparison a noisy machine cannot tilt.
 *
 * <p>Why not two JMH runs: on a shared 2-core VM the same JMH benchmark moves by 25-50% from one fork to the next,
 * more than most changes to the codec. Here each version gets a class loader of its own with its engine jar (and the
 * same workload, {@link CodecSlices}, compiled from this checkout), both are warmed up, and then slices of a fixed
 * number of calls alternate A B B A A B ..., so a noisy second lands on both versions alike. Each slice gives ns per
 * call; the report has each version's median, the change of the medians, and its 95% interval from resampling the
 * slices (a bootstrap with a fixed seed). Each version loads its own copy of this checkout's third-party classes
 * (Agrona), so that neither is compiled in the other's shadow.
 */
public final class CodecAB
{
    private static final int BOOTSTRAP_SAMPLES = 2_000;
    /** A JVM's verdict when the change's interval holds zero; no number of them makes a change. */
    static final String NO_CLEAR_CHANGE = "no clear change";

    private CodecAB()
    {
    }

    /** Where each JVM appends its verdicts, "operation verdict" a line, for {@code --summary} to read. */
    static final String RESULTS_PROPERTY = "codecab.results";
    /**
     * The one operation this JVM times (all of them when unset). Why one: the JIT compiles the decoder once, for
     * the data of the first operation that splits; a second operation then runs code shaped for other bytes. Run
     * after decodeOrder (the same bytes again and again), the stream's split took 264-286 ns an order in half the
     * JVMs and 136-192 in the others; first, 120-135 in every one.
     */
    static final String OPERATION_PROPERTY = "codecab.operation";

    /**
     * {@code CodecAB BASE-CLASSPATH HEAD-CLASSPATH WORKLOAD-CLASSES THIRD-PARTY-CLASSPATH [slices] [calls]}, or
     * {@code CodecAB --summary RESULTS-FILE} after the JVMs have run.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length == 2 && args[0].equals("--summary"))
        {
            System.out.print(summary(Files.readAllLines(Path.of(args[1]))));
            return;
        }
        if (args.length == 1 && args[0].equals("--operations"))
        {
            System.out.println(String.join(" ", CodecSlices.OPERATIONS));
            return;
        }
        if (args.length < 4)
        {
            System.err.println("usage: CodecAB BASE-ENGINE HEAD-ENGINE WORKLOAD-CLASSES THIRD-PARTY-CLASSPATH [slices] [calls per slice]");
            System.exit(2);
        }
        final int slices = args.length > 4 ? Integer.parseInt(args[4]) : 40;
        final int calls = args.length > 5 ? Integer.parseInt(args[5]) : 200_000;
        final Version base = new Version("base", args[0], args[2], args[3]);
        final Version head = new Version("head", args[1], args[2], args[3]);
        System.out.printf("%d slices of %,d calls per version and operation, alternating; base %s, head %s%n",
            slices, calls, args[0], args[1]);
        System.out.printf("%-34s %12s %12s %9s  %s%n", "operation", "base ns", "head ns", "change", "95% interval");
        final String results = System.getProperty(RESULTS_PROPERTY);
        for (final String operation : operations(System.getProperty(OPERATION_PROPERTY)))
        {
            final Comparison comparison = compare(base, head, operation, slices, calls);
            System.out.println(comparison.line(operation));
            if (results != null)
            {
                Files.writeString(Path.of(results), operation + " " + comparison.verdict() + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
        if (base.sink() != head.sink())
        {
            System.out.println("note: the two versions' results differ (sums of lengths and field counts "
                + base.sink() + " and " + head.sink() + "): they do not frame or split the order alike");
        }
    }

    /** The operation named, or every one when none is; an unknown name is an error that lists them. */
    static String[] operations(final String named)
    {
        if (named == null || named.isEmpty())
        {
            return CodecSlices.OPERATIONS;
        }
        if (!Arrays.asList(CodecSlices.OPERATIONS).contains(named))
        {
            throw CodecSlices.unknownOperation(named);
        }
        return new String[] {named};
    }

    /** Warms both versions up, then times them in alternating slices: ns per call of each slice. */
    static Comparison compare(final Version base, final Version head, final String operation, final int slices,
        final int calls) throws Exception
    {
        for (int i = 0; i < Math.max(4, slices / 4); i++)
        {
            base.nanos(operation, calls);
            head.nanos(operation, calls);
        }
        final double[] baseNanos = new double[slices];
        final double[] headNanos = new double[slices];
        for (int i = 0; i < slices; i++)
        {
            // A B, then B A: neither version always follows the other
            final boolean baseFirst = (i & 1) == 0;
            final Version first = baseFirst ? base : head;
            final Version second = baseFirst ? head : base;
            final int made = CodecSlices.callsMade(operation, calls);
            final double firstNanos = (double)first.nanos(operation, calls) / made;
            final double secondNanos = (double)second.nanos(operation, calls) / made;
            baseNanos[i] = baseFirst ? firstNanos : secondNanos;
            headNanos[i] = baseFirst ? secondNanos : firstNanos;
        }
        return Comparison.of(baseNanos, headNanos, new SplittableRandom(20261126));
    }

    /** The medians of two versions' slices and the change from base to head, with its bootstrap 95% interval. */
    record Comparison(double baseMedian, double headMedian, double change, double low, double high)
    {
        static Comparison of(final double[] base, final double[] head, final SplittableRandom random)
        {
            final double baseMedian = median(base);
            final double headMedian = median(head);
            final double[] changes = new double[BOOTSTRAP_SAMPLES];
            final double[] baseSample = new double[base.length];
            final double[] headSample = new double[head.length];
            for (int b = 0; b < BOOTSTRAP_SAMPLES; b++)
            {
                for (int i = 0; i < base.length; i++)
                {
                    baseSample[i] = base[random.nextInt(base.length)];
                }
                for (int i = 0; i < head.length; i++)
                {
                    headSample[i] = head[random.nextInt(head.length)];
                }
                changes[b] = median(headSample) / median(baseSample) - 1;
            }
            Arrays.sort(changes);
            return new Comparison(baseMedian, headMedian, headMedian / baseMedian - 1,
                changes[(int)(BOOTSTRAP_SAMPLES * 0.025)], changes[(int)(BOOTSTRAP_SAMPLES * 0.975) - 1]);
        }

        /** Faster or slower only when the whole interval says so. */
        String verdict()
        {
            return high < 0 ? "faster" : low > 0 ? "slower" : NO_CLEAR_CHANGE;
        }

        String line(final String operation)
        {
            return String.format(Locale.ROOT, "%-34s %12.1f %12.1f %+8.1f%%  [%+.1f%%, %+.1f%%] %s", operation,
                baseMedian, headMedian, 100 * change, 100 * low, 100 * high, verdict());
        }
    }

    /**
     * The verdict of every JVM together, an operation a line: faster or slower only when every JVM said so. Why: each
     * JVM compiles both versions anew, and compiled code can favour one of them in one JVM and the other in the next;
     * an interval from one JVM covers the noise of its slices, not that.
     */
    static String summary(final List<String> verdictLines)
    {
        final Map<String, List<String>> verdicts = new LinkedHashMap<>();
        for (final String line : verdictLines)
        {
            final int space = line.indexOf(' ');
            if (space > 0)
            {
                verdicts.computeIfAbsent(line.substring(0, space), k -> new ArrayList<>()).add(line.substring(space + 1).trim());
            }
        }
        final StringBuilder out = new StringBuilder("across JVMs (faster or slower only when every JVM says so):\n");
        verdicts.forEach((operation, each) ->
        {
            final Map<String, Long> counts = new TreeMap<>();
            each.forEach(verdict -> counts.merge(verdict, 1L, Long::sum));
            final String agreed = counts.size() == 1 && !each.get(0).equals(NO_CLEAR_CHANGE) ? each.get(0) : "no verdict";
            out.append(String.format(Locale.ROOT, "%-34s %-10s (%d JVMs: %s)%n", operation, agreed, each.size(),
                counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                    .collect(Collectors.joining(", "))));
        });
        return out.toString();
    }

    static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return (sorted.length & 1) == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** One engine version: its engine classes and the workload, in a class loader of their own. */
    static final class Version
    {
        private final Object slices;
        private final Method nanos;
        private final Method sink;
        private final ClassLoader loader;

        Version(final String name, final String engine, final String workload, final String thirdPartyClasspath)
            throws Exception
        {
            for (final String part : new String[] {engine, workload})
            {
                if (!Files.exists(Path.of(part)))
                {
                    throw new IllegalArgumentException(name + ": " + part + " does not exist");
                }
            }
            // third-party classes too in a loader of the version's own: with one shared loader the version compiled
            // second found Agrona's methods already compiled, too big to inline again (InlineSmallCode), and one jar
            // as both base and head measured 6-9% slower as head in encodeAndFrameExecutionReport (3 of 3 JVMs)
            final ClassLoader thirdParty = new URLClassLoader(urls(thirdPartyClasspath), ClassLoader.getPlatformClassLoader());
            // the engine first: the workload folder (test classes) holds no engine class, but this keeps it so
            loader = new URLClassLoader(urls(engine + File.pathSeparator + workload), thirdParty);
            final Class<?> type = loader.loadClass(CodecSlices.class.getName());
            try
            {
                slices = type.getConstructor().newInstance();
            }
            catch (final java.lang.reflect.InvocationTargetException ex)
            {
                throw new IllegalStateException(name + ": the workload does not run against the engine in " + engine
                    + " (its API differs from this checkout's?): " + ex.getCause(), ex.getCause());
            }
            nanos = type.getMethod("nanos", String.class, int.class);
            sink = type.getMethod("sink");
        }

        long nanos(final String operation, final int calls) throws Exception
        {
            return (long)nanos.invoke(slices, operation, calls);
        }

        long sink() throws Exception
        {
            return (long)sink.invoke(slices);
        }

        /** A class as this version sees it (for the test that the versions stay apart). */
        Class<?> loadedClass(final String name) throws ClassNotFoundException
        {
            return loader.loadClass(name);
        }

        /** Where this version's decoder class came from (for the test that the versions stay apart). */
        URL decoderSource() throws ClassNotFoundException
        {
            return loader.loadClass(MessageDecoder.class.getName()).getProtectionDomain().getCodeSource().getLocation();
        }
    }

    /** The entries of a class path, as a URLClassLoader takes them. */
    static URL[] urls(final String classpath) throws MalformedURLException
    {
        final List<URL> urls = new ArrayList<>();
        for (final String part : classpath.split(File.pathSeparator))
        {
            if (!part.isEmpty())
            {
                urls.add(Path.of(part).toUri().toURL());
            }
        }
        return urls.toArray(new URL[0]);
    }
}
