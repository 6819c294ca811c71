package org.fixlab.bench.fixlab;

import java.io.UncheckedIOException;
import java.nio.file.Path;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.run.ScratchDirectory;
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
        return ScratchDirectory.deletedAtExit("fixlab-bench-store");
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

}
