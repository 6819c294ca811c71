package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A benchmark process's scratch directory goes when the process does, with what the product wrote in it: a child
 * JVM makes one in a temporary directory of the test's, writes files a level down as a store does, and ends by
 * returning from main or by System.exit with an error status; nothing is left either way.
 */
class ScratchDirectoryTest
{
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(ints = {0, 3})
    void isDeletedWithItsFilesWhenTheProcessEnds(final int exitStatus) throws Exception
    {
        final Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Child.class.getName(),
            Integer.toString(exitStatus)))
            .redirectErrorStream(true)
            .start();
        final String output = new String(child.getInputStream().readAllBytes()).strip();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not exit");
        assertEquals(exitStatus, child.exitValue(), output);
        final Path made = Path.of(output);
        assertTrue(made.startsWith(tmp) && made.getFileName().toString().startsWith("bench-store"), output);
        try (Stream<Path> left = Files.list(tmp))
        {
            assertEquals(List.of(), left.toList(), "left behind by the child");
        }
    }

    /** Makes a scratch directory, fills it as a product's store would, prints its path and ends with the status asked. */
    public static final class Child
    {
        public static void main(final String[] args) throws Exception
        {
            final Path dir = ScratchDirectory.deletedAtExit("bench-store");
            final Path session = Files.createDirectories(dir.resolve("FIX.4.2-CLIENT-SERVER"));
            Files.write(session.resolve("body"), new byte[1 << 20]);
            Files.writeString(dir.resolve("seqnums"), "1 1");
            System.out.println(dir);
            final int status = Integer.parseInt(args[0]);
            if (status != 0)
            {
                System.exit(status);
            }
        }
    }
}
