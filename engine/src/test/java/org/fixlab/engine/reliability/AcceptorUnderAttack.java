package org.fixlab.engine.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.fixlab.engine.tools.EchoApplication;

/**
 * A fixlab acceptor (the conformance acceptor's echo application, dictionary validation on) running
 * on a thread of its own, with two FIX.4.4 sessions on one port: ISLD&lt;-HEALTHY, logged on by a
 * well-behaved raw peer that must keep getting its orders echoed whatever happens, and ISLD&lt;-TW,
 * the one attacked. Work that must run on the engine's thread (sending, reading session state) goes
 * through {@link #onEngineThread}, so the test never touches a session from a second thread.
 */
final class AcceptorUnderAttack implements AutoCloseable
{
    static final String ACCEPTOR = "ISLD";
    static final String ATTACKER = "TW";
    static final String HEALTHY = "HEALTHY";
    static final int LOGON_TIMEOUT_SECONDS = 1;
    static final int MAX_MESSAGE_SIZE = 16 * 1024;
    static final int MAX_PENDING_CONNECTIONS = 64;
    static final int OUTBOUND_BUFFER_SIZE = 64 * 1024;
    private static final long MEMORY_SLACK = 16L << 20;

    private final FixEngine engine;
    private final Session attacked;
    private final int port;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final RawFixPeer healthy;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private final long heapBaseline;
    private final long directBaseline;
    private int healthyOrders;
    private long slowestHealthyRoundTripNanos;

    AcceptorUnderAttack(final Path storeDir, final Consumer<EngineConfiguration> customize)
    {
        this(storeDir, customize, SessionLog.SILENT, new EchoApplication());
    }

    /** With the engine's log going to {@code log}, and {@code attackedApplication} behind ISLD&lt;-TW. */
    AcceptorUnderAttack(final Path storeDir, final Consumer<EngineConfiguration> customize, final SessionLog log,
        final Application attackedApplication)
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeType", "memory")
            .set("storeDirectory", storeDir.toString())
            .set("memoryStoreCapacity", String.valueOf(1 << 20))
            .set("maxQueuedInboundBytes", String.valueOf(256 * 1024))
            .set("tcpNoDelay", "true")
            .set("validateDictionary", "true")
            .set("logonTimeoutSeconds", String.valueOf(LOGON_TIMEOUT_SECONDS))
            .set("maxMessageSize", String.valueOf(MAX_MESSAGE_SIZE))
            .set("inboundBufferSize", String.valueOf(MAX_MESSAGE_SIZE))
            .set("outboundBufferSize", String.valueOf(OUTBOUND_BUFFER_SIZE))
            .set("maxPendingConnections", String.valueOf(MAX_PENDING_CONNECTIONS));
        customize.accept(configuration);
        engine = new FixEngine(configuration, new OffsetEpochNanoClock(), log);
        engine.addAcceptorSession(new SessionId(FixVersion.FIX44, ACCEPTOR, HEALTHY), new EchoApplication());
        attacked = engine.addAcceptorSession(new SessionId(FixVersion.FIX44, ACCEPTOR, ATTACKER), attackedApplication);
        port = engine.listen("127.0.0.1", 0);
        thread = new Thread(this::run, "acceptor-under-attack");
        thread.start();
        healthy = new RawFixPeer(port, "FIX.4.4", HEALTHY, ACCEPTOR);
        healthy.logon(30);
        assertHealthy();
        heapBaseline = heapUsedAfterGc();
        directBaseline = directUsed();
    }

    private void run()
    {
        try
        {
            while (running)
            {
                int work = engine.poll();
                Runnable task;
                while ((task = tasks.poll()) != null)
                {
                    task.run();
                    work++;
                }
                if (work == 0)
                {
                    LockSupport.parkNanos(50_000);
                }
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
        }
    }

    int port()
    {
        return port;
    }

    /** A raw peer for the attacked session ISLD&lt;-TW, connected but not logged on. */
    RawFixPeer attacker()
    {
        return new RawFixPeer(port, "FIX.4.4", ATTACKER, ACCEPTOR);
    }

    RawFixPeer attacker(final int receiveBufferSize)
    {
        return new RawFixPeer(port, "FIX.4.4", ATTACKER, ACCEPTOR, receiveBufferSize);
    }

    /** The attacked session, to be read or driven only inside {@link #onEngineThread}. */
    Session attacked()
    {
        return attacked;
    }

    /** Runs on the engine's thread between duty cycles and returns the result. */
    <T> T onEngineThread(final Callable<T> work)
    {
        final FutureTask<T> task = new FutureTask<>(work);
        tasks.add(task);
        try
        {
            return task.get(10, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("engine thread task failed" + (failure == null ? "" : " (engine died: " + failure + ")"), ex);
        }
    }

    /** The healthy session still round-trips an order within two seconds. */
    void assertHealthy()
    {
        assertNoEngineFailure();
        final String clOrdId = "H" + ++healthyOrders;
        final long start = System.nanoTime();
        healthy.send(healthy.message("D", "11=" + clOrdId + "|21=1|55=EUR/USD|54=1|60=20240102-10:00:00.000|38=100|40=2|44=1.1|"));
        final long deadline = System.currentTimeMillis() + 2_000;
        while (true)
        {
            final String echo = healthy.await("D", Math.max(1, deadline - System.currentTimeMillis()));
            if (clOrdId.equals(RawFixPeer.field(echo, 11)))
            {
                slowestHealthyRoundTripNanos = Math.max(slowestHealthyRoundTripNanos, System.nanoTime() - start);
                return;
            }
        }
    }

    long slowestHealthyRoundTripNanos()
    {
        return slowestHealthyRoundTripNanos;
    }

    void assertNoEngineFailure()
    {
        if (failure != null || !thread.isAlive())
        {
            fail("the engine thread died: " + failure, failure);
        }
    }

    /**
     * Heap and direct memory come back to within 16 MiB of what they were before the attack once
     * closed connections are collected: nothing an attacker sends is kept.
     */
    void assertMemoryBounded()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long heap;
        long direct;
        do
        {
            heap = heapUsedAfterGc();
            direct = directUsed();
            if (heap <= heapBaseline + MEMORY_SLACK && direct <= directBaseline + MEMORY_SLACK)
            {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        while (System.nanoTime() < deadline);
        fail(String.format("memory not bounded: heap %,d -> %,d bytes, direct %,d -> %,d bytes (slack %,d)",
            heapBaseline, heap, directBaseline, direct, MEMORY_SLACK));
    }

    private static long heapUsedAfterGc()
    {
        System.gc();
        final Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static long directUsed()
    {
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if (pool.getName().equals("direct"))
            {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool bean");
    }

    @Override
    public void close()
    {
        healthy.close();
        running = false;
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        engine.close();
        assertEquals(null, failure, "the engine thread threw");
    }
}
