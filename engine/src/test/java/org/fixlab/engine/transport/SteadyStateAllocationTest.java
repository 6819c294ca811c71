package org.fixlab.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.OrderRoundTrips;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.messagelog.MessageLogWriter;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionLog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot path is garbage-free: with the optimized and balanced presets, 100,000 NewOrderSingle -> ExecutionReport
 * round trips over real loopback TCP, after warm-up, allocate 0 bytes on the thread that runs both
 * engines (as counted by the JVM's per-thread allocation counter): the message path, the duty
 * cycle, the session timers, the in-memory, file and mapped stores (and their growing index) and the NIO calls. With the message log on, the
 * engine thread still allocates nothing, nor does the log's writer thread.
 */
class SteadyStateAllocationTest
{
    private static final int WARM_UP = 100_000;
    private static final int MEASURED = 100_000;
    private static final int MAX_WINDOWS = 5;

    @TempDir
    Path storeDir;

    /**
     * The balanced preset as it ships (mapped store, validation, message log), and with the file store, but
     * with Nagle off, which only changes the timing of a round trip here, and an index allocated up front
     * smaller than the messages stored, so that the store's index grows while it is measured.
     */
    @ParameterizedTest(name = "{0} {1} messageLog={2}")
    @CsvSource({"OPTIMIZED, memory, off", "OPTIMIZED, memory, engine-thread", "OPTIMIZED, memory, own-thread",
        "BALANCED, mapped, engine-thread", "BALANCED, mapped, own-thread", "BALANCED, file, engine-thread"})
    void presetAllocatesNothingPerRoundTrip(final Preset preset, final String storeType, final String messageLog)
    {
        final boolean logged = !messageLog.equals("off");
        final EngineConfiguration configuration = EngineConfiguration.preset(preset)
            .set("storeDirectory", storeDir.toString())
            .set("storeType", storeType)
            .set("messageLog", String.valueOf(logged))
            .set("messageLogWriter", logged ? messageLog : "engine-thread")
            // every window writes lines to the files, so the write path is measured too
            .set("messageLogFlushIntervalMs", "1")
            .set("tcpNoDelay", "true")
            .set("storeIndexCapacity", "65536")
            .set("cpuAffinity", "false");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().getId();

        try (FixEngine acceptor = new FixEngine(configuration, new OffsetEpochNanoClock(), SessionLog.SILENT);
            FixEngine initiator = new FixEngine(configuration, new OffsetEpochNanoClock(), SessionLog.SILENT))
        {
            final OrderRoundTrips roundTrips = new OrderRoundTrips(initiator, acceptor);
            final Session session = roundTrips.connect("127.0.0.1", 10);
            assertTrue(session.isLoggedOn(), "logged on");

            roundTrips.run(WARM_UP);
            // The JIT may still recompile (and deoptimize, which can rematerialise an object or two)
            // in the first windows; a per-message allocation would show in every window, never as 0.
            final StringBuilder windows = new StringBuilder();
            long allocated = -1;
            final long[] writers = acceptor.messageLog() instanceof MessageLogWriter acceptorLog
                && initiator.messageLog() instanceof MessageLogWriter initiatorLog
                ? new long[] {acceptorLog.writerThread().getId(), initiatorLog.writerThread().getId()} : new long[0];
            for (int window = 0; window < MAX_WINDOWS && allocated != 0; window++)
            {
                final long before = allocatedBy(threads, thread, writers);
                roundTrips.run(MEASURED);
                allocated = allocatedBy(threads, thread, writers) - before;
                windows.append(allocated).append(' ');
            }
            assertEquals(0, allocated, "bytes allocated per window of " + MEASURED + " round trips: " + windows);
        }
    }

    /** Bytes the engine thread and the message log's writer threads have allocated so far. */
    private static long allocatedBy(final com.sun.management.ThreadMXBean threads, final long engineThread, final long[] writers)
    {
        long bytes = threads.getThreadAllocatedBytes(engineThread);
        for (final long writer : writers)
        {
            bytes += threads.getThreadAllocatedBytes(writer);
        }
        return bytes;
    }
}
