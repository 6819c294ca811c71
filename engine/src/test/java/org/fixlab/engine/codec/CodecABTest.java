package org.fixlab.engine.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CodecAB keeps the two versions apart (each its own engine classes) and judges a change only on a whole interval. */
class CodecABTest
{
    @TempDir
    Path dir;

    @Test
    void eachVersionRunsTheEngineClassesItWasGivenAndBothComputeTheSameResults() throws Exception
    {
        final Path engine = Path.of(MessageDecoder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Path workload = Path.of(CodecSlices.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Path copy = dir.resolve("base-engine");
        copyTree(engine, copy);
        final String thirdParty = thirdPartyClasspath(engine, workload);
        final CodecAB.Version base = new CodecAB.Version("base", copy.toString(), workload.toString(), thirdParty);
        final CodecAB.Version head = new CodecAB.Version("head", engine.toString(), workload.toString(), thirdParty);
        assertEquals(copy.toUri().toURL(), base.decoderSource());
        assertEquals(engine.toUri().toURL(), head.decoderSource());
        assertNotEquals(base.loadedClass("org.agrona.concurrent.UnsafeBuffer"), head.loadedClass("org.agrona.concurrent.UnsafeBuffer"),
            "each version has its own Agrona, so that neither is compiled after the other has compiled Agrona's methods");
        final CodecAB.Comparison comparison = CodecAB.compare(base, head, "decodeOrder", 4, 1_000);
        assertTrue(comparison.baseMedian() > 0 && comparison.headMedian() > 0);
        CodecAB.compare(base, head, "encodeAndFrameOrder", 4, 1_000);
        CodecAB.compare(base, head, "decodeStreamOrder", 4, 1_000);
        final CodecAB.Comparison cold = CodecAB.compare(base, head, "encodeAndFrameRoundTripOrderCold", 4, 4_000);
        assertTrue(cold.baseMedian() > 0 && cold.headMedian() > 0);
        assertEquals(base.sink(), head.sink(), "the same engine frames and splits the same bytes");
        assertNotEquals(0, head.sink());
    }

    @Test
    void aColdOperationTimesFewerCallsEachAfterTheCachesWereReadOver()
    {
        assertEquals(100, CodecSlices.callsMade("decodeOrderCold", 4_000));
        assertEquals(1, CodecSlices.callsMade("decodeOrderCold", 10), "a slice makes at least one call");
        assertEquals(4_000, CodecSlices.callsMade("decodeOrder", 4_000));
        final CodecSlices slices = new CodecSlices();
        final long before = slices.sink();
        assertTrue(slices.nanos("decodeOrderCold", 4_000) > 0);
        assertNotEquals(before, slices.sink(), "the cold calls split the order");
        assertThrows(IllegalArgumentException.class, () -> slices.nanos("decodeOrderWarm", 10));
    }

    @Test
    void anEngineThatIsNotThereIsNamed()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> new CodecAB.Version("base", dir.resolve("missing.jar").toString(), dir.toString(), ""));
        assertTrue(error.getMessage().contains("missing.jar does not exist"), error.getMessage());
    }

    @Test
    void aChangeIsCalledOnlyWhenItsWholeIntervalIsOnOneSide()
    {
        final SplittableRandom noise = new SplittableRandom(1);
        final double[] base = new double[40];
        final double[] same = new double[40];
        final double[] slower = new double[40];
        for (int i = 0; i < base.length; i++)
        {
            base[i] = 100 + noise.nextDouble(-20, 20);
            same[i] = 100 + noise.nextDouble(-20, 20);
            slower[i] = 130 + noise.nextDouble(-20, 20);
        }
        final CodecAB.Comparison unchanged = CodecAB.Comparison.of(base, same, new SplittableRandom(2));
        assertTrue(unchanged.low() < 0 && unchanged.high() > 0, unchanged.toString());
        assertEquals("no clear change", unchanged.verdict());
        final CodecAB.Comparison worse = CodecAB.Comparison.of(base, slower, new SplittableRandom(2));
        assertEquals("slower", worse.verdict(), worse.toString());
        assertTrue(worse.low() > 0.15 && worse.high() < 0.45, worse.toString());
        final CodecAB.Comparison better = CodecAB.Comparison.of(slower, base, new SplittableRandom(2));
        assertEquals("faster", better.verdict(), better.toString());
        assertEquals(CodecAB.median(base) / CodecAB.median(slower) - 1, better.change(), 1e-12);
    }

    /** The JVMs together call a change only when each of them called it, as the A/A run of the stream's split needs. */
    @Test
    void acrossJvmsAChangeIsCalledOnlyWhenEveryJvmCallsIt()
    {
        final String summary = CodecAB.summary(java.util.List.of(
            "encodeAndFrameOrder faster", "decodeOrder no clear change", "decodeStreamOrder faster",
            "encodeAndFrameOrder faster", "decodeOrder no clear change", "decodeStreamOrder slower",
            "encodeAndFrameOrder faster", "decodeOrder no clear change", "decodeStreamOrder slower"));
        final String[] lines = summary.split("\n");
        assertEquals(4, lines.length, summary);
        assertTrue(lines[1].matches("encodeAndFrameOrder +faster +\\(3 JVMs: 3 faster\\)"), lines[1]);
        assertTrue(lines[2].matches("decodeOrder +no verdict +\\(3 JVMs: 3 no clear change\\)"), lines[2]);
        assertTrue(lines[3].matches("decodeStreamOrder +no verdict +\\(3 JVMs: 1 faster, 2 slower\\)"), lines[3]);
        assertTrue(CodecAB.summary(java.util.List.of("decodeOrder slower", "decodeOrder slower"))
            .matches("(?s).*\ndecodeOrder +slower +\\(2 JVMs: 2 slower\\)\n"), "a change every JVM calls is called");
    }

    @Test
    void oneOperationIsChosenByNameAndAnUnknownOneListsTheOthers()
    {
        assertEquals(java.util.List.of(CodecSlices.OPERATIONS), java.util.List.of(CodecAB.operations(null)));
        assertEquals(java.util.List.of("decodeStreamOrder"), java.util.List.of(CodecAB.operations("decodeStreamOrder")));
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> CodecAB.operations("decode"));
        assertTrue(error.getMessage().contains("unknown operation 'decode' (expected one of encodeAndFrameOrder, encodeAndFrameRoundTripOrder, encodeAndFrameExecutionReport"),
            error.getMessage());
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo()
    {
        assertEquals(2.5, CodecAB.median(new double[] {4, 1, 3, 2}));
        assertEquals(3.0, CodecAB.median(new double[] {5, 1, 3}));
    }

    /** Every class path entry but this checkout's engine and test classes, as make codec-ab passes it. */
    private static String thirdPartyClasspath(final Path engine, final Path workload)
    {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(part -> !Path.of(part).toAbsolutePath().equals(engine) && !Path.of(part).toAbsolutePath().equals(workload))
            .collect(Collectors.joining(File.pathSeparator));
    }

    private static void copyTree(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> paths = Files.walk(from))
        {
            for (final Path path : (Iterable<Path>)paths::iterator)
            {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(path, target);
                }
            }
        }
    }
}
