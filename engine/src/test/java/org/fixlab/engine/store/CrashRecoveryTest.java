package org.fixlab.engine.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.fixlab.engine.ChildJvm;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a process writing to a persistent store with SIGKILL at random points, several times over
 * the same files, and checks after each kill that a reopened store holds every message the child
 * stored, intact, with no holes and nothing made up, and sequence numbers that follow the last one.
 */
class CrashRecoveryTest
{
    private static final int KILLS = 4;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"FILE", "MAPPED"})
    void survivesKillsAtRandomPoints(final StoreKind kind) throws Exception
    {
        final Random random = new Random();
        int highestBefore = 0;
        for (int kill = 1; kill <= KILLS; kill++)
        {
            final int startedAt = runAndKill(kind, 20 + random.nextInt(200));

            try (MessageStore store = kind.open(dir))
            {
                final int[] expected = {1};
                final int reported = store.replay(1, Integer.MAX_VALUE, (seqNum, buffer, offset, length) ->
                {
                    assertEquals(expected[0], seqNum, "replay skips or repeats a sequence number");
                    TestMessages.assertIs(seqNum, 0, buffer, offset, length);
                    expected[0]++;
                });
                final int highest = reported;
                assertEquals(highestBefore + 1, startedAt, "run " + kill + " did not resume after the last message of the run before");
                assertTrue(highest > highestBefore, "kill " + kill + ": the child stored nothing; raise the delay");
                assertEquals(highest + 1, store.nextSenderSeqNum(), "next sender after kill " + kill);
                final int target = store.nextTargetSeqNum();
                assertTrue(target == highest || target == highest + 1, "next target " + target + " after " + highest);
                highestBefore = highest;
            }
        }
    }

    /** @return the seqNum the child started storing at. */
    private int runAndKill(final StoreKind kind, final int millisAfterOpen) throws IOException, InterruptedException
    {
        final Path errors = dir.resolve("child-errors.txt");
        final Process child = new ProcessBuilder(ChildJvm.command(
            "-Xmx128m", "-XX:TieredStopAtLevel=1",
            "-cp", System.getProperty("java.class.path"),
            CrashingWriter.class.getName(), kind.name(), dir.toString()))
            .redirectError(errors.toFile())
            .start();
        try
        {
            final BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII));
            final String opened = output.readLine();
            assertNotNull(opened, () -> "the writer died before opening the store: " + read(errors));
            Thread.sleep(millisAfterOpen);
            assertTrue(child.isAlive(), () -> "the writer stopped by itself: " + read(errors));
            final String[] words = opened.split(" ");
            assertEquals("true", words[2], "the writer should map by address, as ChildJvm's flags let it");
            return Integer.parseInt(words[1]);
        }
        finally
        {
            child.destroyForcibly();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the killed writer did not exit");
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return "(no error output: " + ex + ")";
        }
    }
}
