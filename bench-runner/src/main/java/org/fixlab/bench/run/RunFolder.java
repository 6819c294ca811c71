package org.fixlab.bench.run;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.fixlab.bench.BenchException;

/**
 * A run folder is built under a hidden temporary name ({@code .<run_id>.partial}) and renamed to
 * {@code <run_id>} only when every file, the manifest last, is written: a run that dies never leaves
 * a folder that looks complete, and a failed one removes its partial folder.
 */
public final class RunFolder
{
    private final Path partial;
    private final Path target;

    public RunFolder(final Path campaignDir, final String runId)
    {
        this.target = campaignDir.resolve(runId);
        this.partial = campaignDir.resolve("." + runId + ".partial");
        if (Files.exists(target))
        {
            throw new BenchException("run folder " + target + " already exists; choose another --campaign or --run-id");
        }
    }

    public Path open()
    {
        try
        {
            Files.createDirectories(partial.getParent());
            deleteQuietly();
            Files.createDirectories(partial);
            return partial;
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot create " + partial + ": " + ex.getMessage());
        }
    }

    public Path commit()
    {
        try
        {
            try
            {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            }
            catch (final AtomicMoveNotSupportedException ex)
            {
                Files.move(partial, target);
            }
            return target;
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot rename " + partial + " to " + target + ": " + ex.getMessage());
        }
    }

    public void deleteQuietly()
    {
        if (Files.exists(partial))
        {
            try (var paths = Files.walk(partial))
            {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (final IOException ex)
            {
                // a hidden partial folder left behind is ignored by ingest and never looks complete
            }
        }
    }
}
