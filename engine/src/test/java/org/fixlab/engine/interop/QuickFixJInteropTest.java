package org.fixlab.engine.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * fixlab against the real QuickFIX/J over loopback TCP, in both directions: logon, 10,000
 * application messages each way, a connection dropped in the middle of the stream, reconnect,
 * resend and gap fill, and at the end every message accounted for on both sides, repeats only with
 * PossDupFlag=Y.
 */
class QuickFixJInteropTest
{
    private static final int MESSAGES = 10_000;
    private static final int DROP_AFTER = 4_000;

    @TempDir
    Path storeDir;

    private EngineConfiguration configuration()
    {
        return EngineConfiguration.preset(Preset.BALANCED)
            .set("storeDirectory", storeDir.toString())
            .set("tcpNoDelay", "true")
            .set("reconnectIntervalMs", "100")
            .set("validateDictionary", "true");
    }

    @ParameterizedTest
    @EnumSource(FixVersion.class)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fixlabInitiatorToQuickFixJAcceptor(final FixVersion version) throws Exception
    {
        final int port = freePort();
        final Set<String> reports = new HashSet<>();
        final AtomicInteger repeatsWithoutPossDup = new AtomicInteger();
        final Application application = new Application()
        {
            @Override
            public Action onAppMessage(final Session session, final MessageDecoder message)
            {
                if (!reports.add(message.stringValue(11)) && !message.isFlagSet(43))
                {
                    repeatsWithoutPossDup.incrementAndGet();
                }
                return Action.CONTINUE;
            }
        };
        try (QuickFixJPeer quickfix = QuickFixJPeer.acceptor(version.beginString(), "QFJ", "FIXLAB", port);
            FixEngine engine = new FixEngine(configuration(), new org.agrona.concurrent.OffsetEpochNanoClock(), SessionLog.SILENT))
        {
            final Session session = engine.addInitiatorSession(new SessionId(version, "FIXLAB", "QFJ"), "127.0.0.1", port,
                application);
            assertTrue(engine.pollUntil(session::isLoggedOn, 20, TimeUnit.SECONDS), "fixlab logs on to QuickFIX/J");

            final MessageEncoder order = new MessageEncoder();
            for (int i = 0; i < MESSAGES; i++)
            {
                InteropMessages.newOrderSingle(order, "F" + i);
                while (session.trySend(order) < 0)
                {
                    engine.poll();
                }
                if (i == DROP_AFTER)
                {
                    // QuickFIX/J drops the connection while orders and reports are in flight
                    quickfix.session().disconnect("interop test drops the connection", false);
                }
                engine.poll();
            }
            assertTrue(engine.pollUntil(() -> reports.size() == MESSAGES && quickfix.ordersReceived.size() == MESSAGES,
                60, TimeUnit.SECONDS), () -> "all messages accounted for: QuickFIX/J received " + quickfix.ordersReceived.size() +
                " orders, fixlab " + reports.size() + " reports");
            assertTrue(quickfix.logons.get() >= 2, "the session logged on again after the drop");
            assertEquals(0, repeatsWithoutPossDup.get(), "fixlab saw repeats without PossDupFlag");
            assertEquals(0, quickfix.repeatsWithoutPossDup.get(), "QuickFIX/J saw repeats without PossDupFlag");
        }
    }

    @ParameterizedTest
    @EnumSource(FixVersion.class)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void quickFixJInitiatorToFixlabAcceptor(final FixVersion version) throws Exception
    {
        final Set<String> orders = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final AtomicInteger repeatsWithoutPossDup = new AtomicInteger();
        final MessageEncoder report = new MessageEncoder();
        final boolean fix42 = version == FixVersion.FIX42;
        // Reports the session could not take (outbound buffer full, or not logged on) wait here and go out later, as a
        // real application must do: a burst of resent orders answered in one duty cycle can fill the buffer.
        final java.util.ArrayDeque<String> unsentReports = new java.util.ArrayDeque<>();
        final long[] execId = new long[1];
        final Application application = new Application()
        {
            private boolean dropped;

            @Override
            public Action onAppMessage(final Session session, final MessageDecoder message)
            {
                final String clOrdId = message.stringValue(11);
                if (!orders.add(clOrdId) && !message.isFlagSet(43))
                {
                    repeatsWithoutPossDup.incrementAndGet();
                }
                unsentReports.add(clOrdId);
                sendReports(session, unsentReports, report, fix42, execId);
                if (!dropped && orders.size() == DROP_AFTER)
                {
                    dropped = true;
                    session.disconnect("interop test drops the connection");
                }
                return Action.CONTINUE;
            }
        };
        try (FixEngine engine = new FixEngine(configuration(), new org.agrona.concurrent.OffsetEpochNanoClock(), SessionLog.SILENT))
        {
            final Session session = engine.addAcceptorSession(new SessionId(version, "FIXLAB", "QFJ"), application);
            final int port = engine.listen("127.0.0.1", 0);
            // this thread runs the engine, so the reports left over from a full duty cycle are retried between cycles
            final Runnable pollAndRetry = () ->
            {
                engine.poll();
                sendReports(session, unsentReports, report, fix42, execId);
            };
            try (QuickFixJPeer quickfix = QuickFixJPeer.initiator(version.beginString(), "QFJ", "FIXLAB", port))
            {
                waitFor(() ->
                {
                    pollAndRetry.run();
                    return quickfix.isLoggedOn();
                }, 20, () -> "QuickFIX/J logs on to fixlab");
                for (int i = 0; i < MESSAGES; i++)
                {
                    // QuickFIX/J stores what it sends while disconnected and resends it after the next logon
                    quickfix.send(InteropMessages.newOrderSingle(version.beginString(), "Q" + i));
                    pollAndRetry.run();
                }
                waitFor(() ->
                {
                    pollAndRetry.run();
                    return orders.size() == MESSAGES && quickfix.reportsReceived.size() == MESSAGES;
                }, 60,
                    () -> "all messages accounted for: fixlab received " + orders.size() + " orders, QuickFIX/J " +
                    quickfix.reportsReceived.size() + " reports");
                assertTrue(quickfix.logons.get() >= 2, "the session logged on again after the drop");
                assertEquals(0, repeatsWithoutPossDup.get(), "fixlab saw repeats without PossDupFlag");
                assertEquals(0, quickfix.repeatsWithoutPossDup.get(), "QuickFIX/J saw repeats without PossDupFlag");
            }
        }
    }

    /** Sends the waiting reports in order until the session refuses one. */
    private static void sendReports(final Session session, final java.util.ArrayDeque<String> unsent, final MessageEncoder report,
        final boolean fix42, final long[] execId)
    {
        while (!unsent.isEmpty() && session.trySend(InteropMessages.executionReport(report, fix42, unsent.peek(), execId[0] + 1)) > 0)
        {
            unsent.poll();
            execId[0]++;
        }
    }

    private static void waitFor(final java.util.function.BooleanSupplier condition, final int seconds,
        final java.util.function.Supplier<String> what)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out: " + what.get());
            }
            Thread.sleep(5);
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
