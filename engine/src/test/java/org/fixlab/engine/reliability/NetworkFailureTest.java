package org.fixlab.engine.reliability;

import static org.fixlab.engine.reliability.RawFixPeer.field;
import static org.fixlab.engine.reliability.RawFixPeer.pipes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the network and a stalled counterparty do to a session, over real loopback sockets: a
 * connection dropped in the middle of a message (both directions, many times), a peer that stops
 * reading, a peer that sends half a message and goes silent, a peer that never logs on. Each ends
 * the way FIX and the configuration say, with a healthy session on the same acceptor unaffected.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetworkFailureTest
{
    private static final int HEART_BT_INT = 1;

    @TempDir
    Path dir;

    @Test
    void connectionDroppedMidMessageInBothDirections() throws Exception
    {
        final int cuts = 12;
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeType", "file")
            .set("tcpNoDelay", "true")
            .set("reconnectIntervalMs", "20")
            .set("reconnectMaxIntervalMs", "100");
        final ReportLedger reports = new ReportLedger();
        int orders = 0;
        try (FixEngine acceptor = new FixEngine(EngineConfiguration.preset(Preset.BALANCED).set("storeType", "file")
                .set("storeDirectory", Files.createDirectories(dir.resolve("acceptor")).toString()).set("tcpNoDelay", "true"),
                new OffsetEpochNanoClock(), SessionLog.SILENT);
            FixEngine initiator = new FixEngine(configuration.set("storeDirectory",
                Files.createDirectories(dir.resolve("initiator")).toString()), new OffsetEpochNanoClock(), SessionLog.SILENT))
        {
            acceptor.addAcceptorSession(CrashAcceptor.SESSION, new CrashAcceptor.ReportingApplication());
            try (ChoppingProxy proxy = new ChoppingProxy(acceptor.listen("127.0.0.1", 0), cuts, 20_000))
            {
                final Session session = initiator.addInitiatorSession(new SessionId(FixVersion.FIX44, "CLIENT", "EXEC"),
                    "127.0.0.1", proxy.port(), reports);
                final MessageEncoder order = new MessageEncoder();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                while (proxy.cuts() < cuts && System.nanoTime() < deadline)
                {
                    if (session.isLoggedOn() && orders - reports.answered() < 50 && session.trySend(ReportLedger.order(order, orders)) > 0)
                    {
                        orders++;
                    }
                    Engines.pump(initiator, acceptor);
                }
                assertEquals(cuts, proxy.cuts(), "the proxy did not get to cut the connection often enough");
                final int sent = orders;
                Engines.pollUntil(() -> reports.answered() == sent, 30, () -> "orders without a report after " + cuts +
                    " cuts: " + reports.unanswered(sent), initiator, acceptor);
            }
        }
        System.out.printf("dropped mid-message: %d cuts, %d orders, %d reports, %d repeats with PossDupFlag, %d with PossResend%n",
            cuts, orders, reports.total(), reports.repeatsWithPossDup(), reports.repeatsWithPossResend());
        assertEquals(0, reports.unmarkedRepeats(), () -> "unmarked repeat: " + reports.firstUnmarkedRepeat());
    }

    @Test
    void halfAMessageThenAResetLeavesTheSequenceWhereItWas()
    {
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> { }))
        {
            final RawFixPeer peer = acceptor.attacker();
            peer.logon(30);
            final int seqNum = peer.takeSeqNum();
            final String order = RawFixPeer.frame("FIX.4.4", peer.header("D", seqNum) +
                "11=HALF|21=1|55=EUR/USD|54=1|60=20240102-10:00:00.000|38=100|40=2|44=1.1|");
            peer.send(order.substring(0, order.length() / 2));
            peer.reset();
            acceptor.assertHealthy();
            try (RawFixPeer again = acceptor.attacker())
            {
                again.nextSeqNum(seqNum);
                again.logon(30);
                again.send(RawFixPeer.frame("FIX.4.4", again.header("D", again.takeSeqNum()) +
                    "11=HALF|21=1|55=EUR/USD|54=1|60=20240102-10:00:00.000|38=100|40=2|44=1.1|"));
                final String echo = again.await("D", 5_000);
                assertEquals("HALF", field(echo, 11));
                assertTrue(again.received().stream().noneMatch(m -> "2".equals(field(m, 35)) || "3".equals(field(m, 35))),
                    () -> "the half message left a trace: " + pipes(again.received()));
            }
            acceptor.assertMemoryBounded();
        }
    }

    @Test
    void peerThatStopsReadingGetsBackPressureThenHeartbeatTimeout()
    {
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> c.set("socketSendBufferSize", "16384"));
            RawFixPeer peer = acceptor.attacker(4096))
        {
            peer.logon(HEART_BT_INT);
            final long loggedOn = System.nanoTime();
            // from now on the peer reads and writes nothing
            final MessageEncoder report = new MessageEncoder();
            final long[] results = new long[3]; // sent, back-pressured, slowest call in ns
            while (results[1] == 0)
            {
                acceptor.onEngineThread(() -> sendUntilBackPressured(acceptor.attacked(), report, results));
                assertTrue(System.nanoTime() - loggedOn < TimeUnit.SECONDS.toNanos(HEART_BT_INT),
                    "no back-pressure within a heartbeat interval; sent " + results[0]);
            }
            final long sentBytes = results[0] * 256;
            assertTrue(sentBytes < 8L << 20, "sent " + results[0] + " messages to a peer that reads nothing");
            acceptor.assertHealthy();
            // the application keeps trying; the session must end by itself once the heartbeat interval passes
            final long deadline = loggedOn + TimeUnit.MILLISECONDS.toNanos((long)(HEART_BT_INT * 2.4 * 1000) + 2_000);
            String reason = null;
            while (reason == null)
            {
                assertTrue(System.nanoTime() < deadline, "the session to a peer that reads nothing never ended");
                reason = acceptor.onEngineThread(() ->
                {
                    sendUntilBackPressured(acceptor.attacked(), report, results);
                    return acceptor.attacked().isConnected() ? null : acceptor.attacked().disconnectReason();
                });
                acceptor.assertHealthy();
            }
            final long endedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - loggedOn);
            System.out.printf("peer that stops reading: %d messages buffered before back-pressure, slowest trySend %.1f us, " +
                "session ended after %d ms: %s%n", results[0], results[2] / 1e3, endedAfter, reason);
            assertTrue(endedAfter >= HEART_BT_INT * 1000L, "ended before a heartbeat interval passed: " + reason);
            assertTrue(reason.contains("heartbeat") || reason.contains("not reading"), reason);
            assertTrue(results[2] < TimeUnit.MILLISECONDS.toNanos(50), "trySend blocked for " + results[2] + " ns");
            acceptor.assertMemoryBounded();
        }
    }

    /** On the engine thread: sends ~256-byte reports until the session says BACK_PRESSURED or is gone. */
    private static Void sendUntilBackPressured(final Session session, final MessageEncoder report, final long[] results)
    {
        for (int i = 0; i < 10_000; i++)
        {
            report.reset('8').append(37, "O1").append(11, "SLOW" + i).append(17, i).append(150, '0').append(39, '0')
                .append(55, "EUR/USD").append(54, '1').appendDecimal(151, 100, 0).appendDecimal(14, 0, 0).appendDecimal(6, 0, 0)
                .append(58, "padding to about two hundred and fifty six bytes per message, padding, padding, padding");
            final long start = System.nanoTime();
            final long result = session.trySend(report);
            results[2] = Math.max(results[2], System.nanoTime() - start);
            if (result == SendResult.BACK_PRESSURED)
            {
                results[1]++;
                return null;
            }
            if (result < 0)
            {
                assertEquals(SendResult.NOT_LOGGED_ON, result, SendResult.describe(result));
                return null;
            }
            results[0]++;
        }
        return null;
    }

    @Test
    void halfAMessageThenSilenceEndsWithTestRequestAndHeartbeatTimeout()
    {
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> { });
            RawFixPeer peer = acceptor.attacker())
        {
            peer.logon(HEART_BT_INT);
            final long start = System.nanoTime();
            final String heartbeat = peer.message("0", "");
            peer.send(heartbeat.substring(0, heartbeat.length() / 2));
            final String testRequest = peer.await("1", 5_000);
            acceptor.assertHealthy();
            assertTrue(peer.awaitClosed(5_000), "the acceptor waited forever for the rest of the message");
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.printf("half a message then silence: TestRequest %s, closed after %d ms%n", field(testRequest, 112), millis);
            // (1 + 1.4) x HeartBtInt of silence, the configured heartbeatTimeoutMultiplier
            assertTrue(millis >= 2_400 - 200, "closed after " + millis + " ms, before the heartbeat timeout");
            acceptor.assertMemoryBounded();
        }
    }

    @Test
    void halfALogonThenSilenceIsDroppedByTheLogonTimeout()
    {
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> { });
            RawFixPeer peer = acceptor.attacker())
        {
            final String logon = peer.message("A", "98=0|108=30|");
            final long start = System.nanoTime();
            peer.send(logon.substring(0, logon.length() / 2));
            acceptor.assertHealthy();
            assertTrue(peer.awaitClosed(5_000), "never closed");
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= AcceptorUnderAttack.LOGON_TIMEOUT_SECONDS * 1000L - 200, "closed after " + millis + " ms");
            assertEquals(List.of(), peer.received());
        }
    }

    @ParameterizedTest(name = "logonTimeoutSeconds={0}")
    @ValueSource(ints = {1, 3})
    void peerThatNeverLogsOnIsDroppedAfterTheConfiguredTimeout(final int seconds)
    {
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> c.set("logonTimeoutSeconds", String.valueOf(seconds)));
            RawFixPeer peer = acceptor.attacker())
        {
            final long start = System.nanoTime();
            acceptor.assertHealthy();
            assertTrue(peer.awaitClosed(seconds * 1000L + 3_000), "a connection without Logon was never closed");
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.printf("never logs on: closed after %d ms (logonTimeoutSeconds=%d)%n", millis, seconds);
            assertTrue(millis >= seconds * 1000L - 200, "closed after " + millis + " ms, before the logon timeout");
            assertEquals(List.of(), peer.received());
            acceptor.assertHealthy();
        }
    }
}
