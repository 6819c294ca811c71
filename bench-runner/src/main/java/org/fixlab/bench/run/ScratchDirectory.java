package org.fixlab.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.fixlab.bench.BenchException;

/**
 * A temporary directory for one benchmark process's files (a product's message store, its logs), deleted with
 * everything in it when the process exits. A run writes hundreds of megabytes there (QuickFIX/J's file store kept
 * 540 MB a run): left behind, a few campaigns fill the disk, and a fuller file system is slower to write to.
 */
public final class ScratchDirectory
{
    private ScratchDirectory()
    {
    }

    /** A new directory named {@code prefix} and a random suffix under the system's temporary directory. */
    public static Path deletedAtExit(final String prefix)
    {
        final Path dir;
        try
        {
            dir = Files.createTempDirectory(prefix);
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot create a temporary directory " + prefix + "...: " + ex.getMessage(), ex);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "delete " + dir.getFileName()));
        return dir;
    }

    /** Deletes {@code dir} and everything under it, as far as it can: what cannot be deleted stays, silently. */
    static void deleteTree(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ex)
        {
            // best effort at exit: there is no one left to tell
        }
    }
}
