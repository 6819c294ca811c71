package org.fixlab.bench.fixlab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.bench.BenchException;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.session.SessionLog;
import org.fixlab.engine.transport.CpuPinning;

/** What the fixlab client and server share: an engine over a private store directory, and pinning. */
final class FixlabSupport
{
    private FixlabSupport()
    {
    }

    /** Each process gets its own store directory, so file and mapped stores start empty and never collide. */
    static Path storeDirectory()
    {
        try
        {
            final Path dir = Files.createTempDirectory("fixlab-bench-store");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            return dir;
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot create a store directory: " + ex.getMessage(), ex);
        }
    }

    static FixEngine engine(final EngineConfiguration configuration)
    {
        configuration.set("storeDirectory", storeDirectory().toString());
        return new FixEngine(configuration, new OffsetEpochNanoClock(), SessionLog.SILENT);
    }

    /** The benchmark thread polls the engine, so it is the thread the configuration's affinity applies to. */
    static CpuPinning pin(final EngineConfiguration configuration)
    {
        return configuration.bool("cpuAffinity") ? CpuPinning.pin(configuration.integer("cpuAffinityCpu")) : CpuPinning.none();
    }

    static int listen(final FixEngine engine, final String bind, final int port)
    {
        try
        {
            return engine.listen(bind, port);
        }
        catch (final UncheckedIOException ex)
        {
            throw new BenchException("cannot listen on " + bind + ":" + port + " (" + ex.getMessage() + "; port in use?)", ex);
        }
    }

    static void deleteTree(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ex)
        {
            // best effort: a temporary directory left behind is harmless
        }
    }
}
