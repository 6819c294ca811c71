package org.fixlab.bench.artio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.aeron.CommonContext;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.BenchException;
import uk.co.real_logic.artio.engine.EngineConfiguration;
import uk.co.real_logic.artio.engine.FixEngine;
import uk.co.real_logic.artio.library.AcquiringSessionExistsHandler;
import uk.co.real_logic.artio.library.FixLibrary;
import uk.co.real_logic.artio.library.LibraryConfiguration;
import uk.co.real_logic.artio.library.SessionAcquireHandler;
import uk.co.real_logic.artio.messages.InitialAcceptedSessionOwner;

/**
 * One side's Artio: an embedded media driver with its archive, the FixEngine (the framer that owns
 * the sockets) and a FixLibrary (where sessions are handled and polled on the benchmark thread),
 * all working in a temporary folder that {@link #close()} removes.
 */
final class ArtioNode implements AutoCloseable
{
    /**
     * Artio's EpochNanoClock set to System.nanoTime(): the receive timestamps Artio hands to onMessage
     * (taken by the framer when it reads the socket) are then on the clock of every other timestamp here.
     */
    static final EpochNanoClock NANO_TIME = System::nanoTime;

    /**
     * What Artio's engine may hold for a session before it ends it as a slow consumer: a term of the library's IPC
     * publication (Aeron's default, 64 MiB), more than the half term the library can publish ahead of the engine.
     */
    static final int SENDER_MAX_BYTES_IN_BUFFER = io.aeron.driver.Configuration.ipcTermBufferLength();

    /** The archive's local (IPC) control channel, Aeron's default for it. */
    private static final String ARCHIVE_CONTROL = "aeron:ipc?term-length=64k";

    private final Path dir;
    final FixLibrary library;

    private ArchivingMediaDriver startedDriver;
    private FixEngine startedEngine;

    ArtioNode(final ArtioSettings settings, final String bind, final int port, final SessionAcquireHandler sessions,
        final IdleStrategy libraryIdle)
    {
        try
        {
            dir = Files.createTempDirectory("fixlab-artio");
        }
        catch (final IOException ex)
        {
            throw new BenchException("artio: cannot create its working folder: " + ex.getMessage(), ex);
        }
        try
        {
            final String aeronDir = dir.resolve("aeron").toString();
            // Artio's samples run the driver and archive SHARED: one thread each side on this small machine
            final MediaDriver.Context driverContext = new MediaDriver.Context()
                .aeronDirectoryName(aeronDir)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(settings.driverIdle())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true);
            final Archive.Context archiveContext = new Archive.Context()
                .aeronDirectoryName(aeronDir)
                .archiveDir(dir.resolve("archive").toFile())
                .threadingMode(ArchiveThreadingMode.SHARED)
                .deleteArchiveOnStart(true)
                // the engine talks to its archive over the local IPC channel; the UDP one is on an ephemeral port
                .controlChannel("aeron:udp?endpoint=localhost:0")
                .replicationChannel("aeron:udp?endpoint=localhost:0")
                .recordingEventsEnabled(false)
                .segmentFileLength(driverContext.ipcTermBufferLength());
            startedDriver = ArchivingMediaDriver.launch(driverContext, archiveContext);

            final EngineConfiguration engineConfig = new EngineConfiguration()
                .libraryAeronChannel(CommonContext.IPC_CHANNEL)
                .logFileDir(dir.resolve("logs").toString())
                .deleteLogFileDirOnStart(true)
                .logInboundMessages(settings.logMessages())
                .logOutboundMessages(settings.logMessages())
                .framerIdleStrategy(settings.framerIdle())
                // See ArtioClientPeer.send: what the library published before it heard the session was slow still
                // reaches the engine, up to the window of the library's IPC publication (half a term); the engine
                // must be able to hold it, where the default 4 MiB ends the session.
                .senderMaxBytesInBuffer(SENDER_MAX_BYTES_IN_BUFFER)
                .acceptorfixDictionary(org.fixlab.bench.artio.fix42.FixDictionaryImpl.class)
                .overrideAcceptorFixDictionary(org.fixlab.bench.artio.fix44.FixDictionaryImpl.class);
            if (bind != null)
            {
                // One library per process: it owns accepted sessions from their logon, so no order can arrive
                // before the application has the session (in the engine's gateway it would wait for a replay,
                // which needs the message log the optimized configuration turns off).
                engineConfig.bindTo(bind, port).initialAcceptedSessionOwner(InitialAcceptedSessionOwner.SOLE_LIBRARY);
            }
            engineConfig.epochNanoClock(NANO_TIME);
            engineConfig.monitoringFile(dir.resolve("engine-counters").toString());
            engineConfig.aeronContext().aeronDirectoryName(aeronDir);
            engineConfig.aeronArchiveContext().aeronDirectoryName(aeronDir)
                .controlRequestChannel(ARCHIVE_CONTROL)
                .controlResponseChannel(ARCHIVE_CONTROL);
            startedEngine = FixEngine.launch(engineConfig);

            final LibraryConfiguration libraryConfig = new LibraryConfiguration()
                .libraryAeronChannels(List.of(CommonContext.IPC_CHANNEL))
                .sessionAcquireHandler(sessions)
                // sessions accepted by the engine are handed to this library, as in Artio's benchmark server
                .sessionExistsHandler(new AcquiringSessionExistsHandler(true))
                .libraryIdleStrategy(libraryIdle);
            libraryConfig.epochNanoClock(NANO_TIME);
            libraryConfig.monitoringFile(dir.resolve("library-counters").toString());
            libraryConfig.aeronContext().aeronDirectoryName(aeronDir);
            library = connect(libraryConfig);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly();
            throw ex instanceof BenchException ? ex : new BenchException("artio: cannot start: " + ex, ex);
        }
    }

    private static FixLibrary connect(final LibraryConfiguration config)
    {
        final FixLibrary library = FixLibrary.connect(config);
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (!library.isConnected())
        {
            library.poll(10);
            if (System.nanoTime() > deadline)
            {
                library.close();
                throw new BenchException("artio: the library did not connect to its engine within 20 s");
            }
            Thread.onSpinWait();
        }
        return library;
    }

    @Override
    public void close()
    {
        closeQuietly();
    }

    private void closeQuietly()
    {
        // library first, the driver last: each one uses the one after it
        for (final AutoCloseable part : new AutoCloseable[] {library, startedEngine, startedDriver})
        {
            if (part != null)
            {
                try
                {
                    part.close();
                }
                catch (final Exception ex)
                {
                    // closing is best effort; the folder goes anyway
                }
            }
        }
        if (dir != null)
        {
            try (Stream<Path> walk = Files.walk(dir))
            {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (final IOException | UncheckedIOException ex)
            {
                // a temporary folder the OS will clean
            }
        }
    }
}
