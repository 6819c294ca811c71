package org.fixlab.engine.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.agrona.concurrent.OffsetEpochNanoClock;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TLS between fixlab engines over loopback: logon and orders over TLS 1.3 and 1.2, the cipher suites
 * configured, client certificates, and the failures an operator meets (untrusted certificate, wrong host name, plaintext
 * peer on a TLS port, TLS peer on a plaintext port, a handshake that never completes). Each failure
 * must leave one log line that names it, and a healthy session on the same acceptor keeps trading
 * throughout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsConnectionTest
{
    private static final SessionId GOOD = new SessionId(FixVersion.FIX44, "GOOD", "EXEC");
    private static final SessionId BAD = new SessionId(FixVersion.FIX44, "BAD", "EXEC");

    @TempDir
    static Path keys;
    static TestCertificates certificates;

    private final List<FixEngine> engines = new ArrayList<>();
    private final List<String> acceptorLog = Collections.synchronizedList(new ArrayList<>());
    private final List<String> initiatorLog = Collections.synchronizedList(new ArrayList<>());
    private final OrderDesk acceptorDesk = new OrderDesk();
    private final OrderDesk goodDesk = new OrderDesk();
    private FixEngine acceptor;
    private int port;
    private Session good;

    @BeforeAll
    static void makeKeys() throws Exception
    {
        certificates = TestCertificates.create(keys);
    }

    @AfterEach
    void closeEngines()
    {
        engines.forEach(FixEngine::close);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void ordersFlowOverEachProtocol(final String protocol)
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server));
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust).set("tlsProtocols", protocol), initiatorLog);
        final OrderDesk desk = new OrderDesk();
        final Session session = initiator.addInitiatorSession(BAD, "localhost", port, desk);
        awaitTrue(session::isLoggedOn, () -> "no logon over " + protocol + ": " + initiatorLog + acceptorLog);
        for (int i = 0; i < 500; i++)
        {
            final int n = i;
            awaitTrue(() -> session.trySend(order("T" + n)) > 0, () -> "order refused");
        }
        awaitTrue(() -> desk.reports == 500, () -> desk.reports + " of 500 reports over " + protocol);
        assertTrue(initiatorLog.stream().anyMatch(line -> line.contains("with TLS")), initiatorLog::toString);
    }

    /**
     * More ciphertext than one read of the TLS buffer takes (a record holds at most 16 KiB): a message of three
     * records, then a burst of orders sent in one duty cycle, all arrive whole and in order.
     */
    @Test
    void messagesLargerThanARecordAndBurstsArriveWhole()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server));
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust), initiatorLog);
        final OrderDesk desk = new OrderDesk();
        final Session session = initiator.addInitiatorSession(BAD, "localhost", port, desk);
        awaitTrue(session::isLoggedOn, () -> "no logon: " + initiatorLog + acceptorLog);
        final MessageEncoder large = new MessageEncoder(65_536).reset('D').append(11, "L1").append(21, '1')
            .append(55, "EUR/USD").append(54, '1').appendDecimal(38, 100, 0).append(40, '1').append(58, "x".repeat(40_000));
        assertTrue(session.trySend(large) > 0);
        awaitTrue(() -> desk.reports == 1, () -> "no report for the large order: " + acceptorLog);
        assertEquals(40_000, acceptorDesk.longestText);
        final int ordersBefore = acceptorDesk.orders;
        for (int i = 0; i < 400; i++)
        {
            assertTrue(session.trySend(order("B" + i)) > 0, "the burst fits the outbound buffer");
        }
        awaitTrue(() -> desk.reports == 401, () -> desk.reports + " of 401 reports");
        assertEquals(ordersBefore + 400, acceptorDesk.orders);
        assertTrue(session.isLoggedOn(), "no gap, reject or disconnect on the way");
    }

    @Test
    void protocolsWithNothingInCommonFailTheHandshake()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server).set("tlsProtocols", "TLSv1.3"));
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust).set("tlsProtocols", "TLSv1.2"), initiatorLog);
        initiator.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitLine(acceptorLog, "closed before Logon: TLS handshake failed");
        awaitLine(initiatorLog, "TLS handshake failed");
        assertGoodSessionStillTrades();
    }

    /** The acceptor's order decides between the suites both sides enable, not the initiator's. */
    @Test
    void theAcceptorsCipherSuiteOrderDecides()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server)
            .set("tlsCipherSuites", "TLS_AES_128_GCM_SHA256, TLS_CHACHA20_POLY1305_SHA256"));
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust)
            .set("tlsCipherSuites", "TLS_CHACHA20_POLY1305_SHA256,TLS_AES_128_GCM_SHA256"), initiatorLog);
        final Session session = initiator.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitTrue(session::isLoggedOn, () -> "no logon: " + initiatorLog + acceptorLog);
        assertEquals("TLSv1.3 TLS_AES_128_GCM_SHA256", session.transport().tlsSession());
        assertEquals("TLSv1.3 TLS_AES_128_GCM_SHA256", good.transport().tlsSession(),
            "the JDK's suites on the initiator, the acceptor's first among them");
        awaitLine(initiatorLog, "logged on over TLSv1.3 TLS_AES_128_GCM_SHA256");
    }

    @Test
    void cipherSuitesWithNothingInCommonFailTheHandshake()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server).set("tlsCipherSuites", "TLS_AES_128_GCM_SHA256"));
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust)
            .set("tlsCipherSuites", "TLS_CHACHA20_POLY1305_SHA256"), initiatorLog);
        initiator.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitLine(acceptorLog, "closed before Logon: TLS handshake failed");
        awaitLine(initiatorLog, "TLS handshake failed");
        assertGoodSessionStillTrades();
    }

    @Test
    void aCipherSuiteThatCannotServeIsRefusedWhenTheEngineStarts()
    {
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> engine(
            certificates.initiator(base(), certificates.trust).set("tlsCipherSuites", "TLS_AES_128_GCM_SHA256,TLS_NO_SUCH_SUITE"),
            initiatorLog));
        assertTrue(unknown.getMessage().startsWith("tlsCipherSuites: TLS_NO_SUCH_SUITE is not supported by this JDK (it offers "),
            unknown.getMessage());
        final IllegalArgumentException unserved = assertThrows(IllegalArgumentException.class, () -> engine(
            certificates.initiator(base(), certificates.trust).set("tlsProtocols", "TLSv1.2")
                .set("tlsCipherSuites", "TLS_AES_128_GCM_SHA256"), initiatorLog));
        assertEquals("tlsCipherSuites: none of TLS_AES_128_GCM_SHA256 serves tlsProtocols TLSv1.2 (TLS 1.3 suites are "
            + "TLS_AES_* and TLS_CHACHA20_*, TLS 1.2 suites have _WITH_ in their name)", unserved.getMessage());
        final IllegalArgumentException signalOnly = assertThrows(IllegalArgumentException.class, () -> engine(
            certificates.initiator(base(), certificates.trust).set("tlsCipherSuites", "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"),
            initiatorLog));
        assertTrue(signalOnly.getMessage().startsWith("tlsCipherSuites: none of TLS_EMPTY_RENEGOTIATION_INFO_SCSV serves"),
            signalOnly.getMessage());
        engine(certificates.initiator(base(), certificates.trust).set("tlsProtocols", "TLSv1.2")
            .set("tlsCipherSuites", "TLS_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"), initiatorLog);
    }

    @Test
    void clientCertificateIsRequiredWhenConfigured()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server).set("tlsNeedClientAuth", "true"), certificates.client);
        final FixEngine anonymous = engine(certificates.initiator(base(), certificates.trust), initiatorLog);
        anonymous.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitLine(acceptorLog, "closed before Logon: TLS handshake failed");
        assertGoodSessionStillTrades();
    }

    @Test
    void untrustedCertificateIsRefused()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server));
        // trusts only the stranger's certificate, not the acceptor's
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.stranger), initiatorLog);
        final Session session = initiator.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitLine(initiatorLog, "TLS handshake failed");
        awaitLine(initiatorLog, "certification path");
        awaitLine(acceptorLog, "closed before Logon: TLS handshake failed");
        assertTrue(!session.isLoggedOn());
        assertGoodSessionStillTrades();
    }

    @Test
    void wrongHostNameIsRefusedUnlessVerificationIsOff()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server));
        // the certificate names localhost, not 127.0.0.1
        final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust), initiatorLog);
        final Session session = initiator.addInitiatorSession(BAD, "127.0.0.1", port, new OrderDesk());
        awaitLine(initiatorLog, "TLS handshake failed");
        awaitLine(initiatorLog, "127.0.0.1");
        assertTrue(!session.isLoggedOn());
        assertGoodSessionStillTrades();
        engines.remove(initiator);
        initiator.close();

        final FixEngine unverified = engine(certificates.initiator(base(), certificates.trust).set("tlsVerifyHostname", "false"),
            new ArrayList<>());
        final Session accepted = unverified.addInitiatorSession(BAD, "127.0.0.1", port, new OrderDesk());
        awaitTrue(accepted::isLoggedOn, () -> "with tlsVerifyHostname=false the same certificate is accepted");
    }

    @Test
    void plaintextPeerOnTlsPortIsNamedAndDropped()
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server));
        final FixEngine plaintext = engine(base(), initiatorLog);
        final Session session = plaintext.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitLine(acceptorLog, "closed before Logon: TLS handshake failed");
        awaitLine(initiatorLog, "disconnected");
        assertTrue(!session.isLoggedOn());
        assertGoodSessionStillTrades();
    }

    @Test
    void tlsPeerOnPlaintextPortIsNamedAndDropped()
    {
        startTlsAcceptorOrPlaintext(base(), null);
        final FixEngine tls = engine(certificates.initiator(base(), certificates.trust), initiatorLog);
        final Session session = tls.addInitiatorSession(BAD, "localhost", port, new OrderDesk());
        awaitLine(acceptorLog, "closed before Logon: the peer speaks TLS on a plaintext connection");
        awaitLine(initiatorLog, "peer closed the connection (TLS handshake not complete)");
        assertTrue(!session.isLoggedOn());
        assertGoodSessionStillTrades();
    }

    @Test
    void stalledHandshakeIsDroppedAfterTheLogonTimeout() throws Exception
    {
        startTlsAcceptor(certificates.acceptor(base(), certificates.server));
        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), port))
        {
            awaitLine(acceptorLog, "closed before Logon: no Logon within the logon timeout (TLS handshake not complete)");
            silent.setSoTimeout(5_000);
            final InputStream in = silent.getInputStream();
            in.readAllBytes(); // at most an alert, then the end of the stream; a timeout fails the test
        }
        assertGoodSessionStillTrades();

        // the initiator's side: an acceptor that takes the connection and never answers the ClientHello
        try (ServerSocket mute = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final FixEngine initiator = engine(certificates.initiator(base(), certificates.trust), initiatorLog);
            initiator.addInitiatorSession(BAD, "localhost", mute.getLocalPort(), new OrderDesk());
            awaitLine(initiatorLog, "(TLS handshake not complete)");
        }
        assertGoodSessionStillTrades();
    }

    // ---- fixture ------------------------------------------------------------------------------

    private static EngineConfiguration base()
    {
        return EngineConfiguration.preset(Preset.BALANCED).set("storeType", "memory").set("tcpNoDelay", "true")
            .set("logonTimeoutSeconds", "1").set("reconnectIntervalMs", "200").set("reconnectMaxIntervalMs", "400");
    }

    private void startTlsAcceptor(final EngineConfiguration configuration)
    {
        startTlsAcceptorOrPlaintext(configuration, null);
    }

    private void startTlsAcceptor(final EngineConfiguration configuration, final Path goodClientKeyStore)
    {
        startTlsAcceptorOrPlaintext(configuration, goodClientKeyStore);
    }

    /** The acceptor with GOOD and BAD sessions, and a healthy initiator logged on as GOOD (TLS if the acceptor is). */
    private void startTlsAcceptorOrPlaintext(final EngineConfiguration configuration, final Path goodClientKeyStore)
    {
        acceptor = engine(configuration, acceptorLog);
        acceptor.addAcceptorSession(new SessionId(FixVersion.FIX44, "EXEC", "GOOD"), acceptorDesk);
        acceptor.addAcceptorSession(new SessionId(FixVersion.FIX44, "EXEC", "BAD"), acceptorDesk);
        port = acceptor.listen("127.0.0.1", 0);
        EngineConfiguration goodConfiguration = configuration.bool("tlsEnabled") ?
            certificates.initiator(base(), certificates.trust) : base();
        if (goodClientKeyStore != null)
        {
            goodConfiguration = goodConfiguration.set("tlsKeyStore", goodClientKeyStore.toString())
                .set("tlsKeyStorePassword", TestCertificates.PASSWORD);
        }
        good = engine(goodConfiguration, new ArrayList<>()).addInitiatorSession(GOOD, "localhost", port, goodDesk);
        awaitTrue(good::isLoggedOn, () -> "the healthy session did not log on: " + acceptorLog);
    }

    private void assertGoodSessionStillTrades()
    {
        final int before = goodDesk.reports;
        assertTrue(good.isLoggedOn(), "the healthy session lost its logon");
        awaitTrue(() -> good.trySend(order("G" + before)) > 0, () -> "the healthy session cannot send");
        awaitTrue(() -> goodDesk.reports == before + 1, () -> "the healthy session got no report");
    }

    private FixEngine engine(final EngineConfiguration configuration, final List<String> log)
    {
        final FixEngine engine = new FixEngine(configuration, new OffsetEpochNanoClock(), new SessionLog()
        {
            @Override
            public void info(final SessionId session, final String event)
            {
                log.add(event);
            }

            @Override
            public void warn(final SessionId session, final String event)
            {
                log.add(event);
            }
        });
        engines.add(engine);
        return engine;
    }

    private static MessageEncoder order(final String clOrdId)
    {
        return new MessageEncoder().reset('D').append(11, clOrdId).append(21, '1').append(55, "EUR/USD").append(54, '1')
            .appendDecimal(38, 100, 0).append(40, '1');
    }

    private void awaitLine(final List<String> log, final String text)
    {
        awaitTrue(() ->
        {
            synchronized (log)
            {
                return log.stream().anyMatch(line -> line.contains(text));
            }
        }, () -> "no log line with \"" + text + "\" in " + log);
    }

    /** Runs every engine's duty cycle on this thread until the condition holds. */
    private void awaitTrue(final BooleanSupplier condition, final Supplier<String> what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                fail(what.get());
            }
            int work = 0;
            for (final FixEngine engine : engines)
            {
                work += engine.poll();
            }
            if (work == 0)
            {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** Answers orders with execution reports and counts the reports it receives. */
    private static final class OrderDesk implements Application
    {
        private final MessageEncoder report = new MessageEncoder();
        int reports;
        int orders;
        /** The longest Text(58) of an order received. */
        int longestText;

        @Override
        public Action onAppMessage(final Session session, final MessageDecoder message)
        {
            if (message.msgTypeChar() == '8')
            {
                reports++;
                return Action.CONTINUE;
            }
            orders++;
            final int text = message.indexOf(58);
            longestText = Math.max(longestText, text < 0 ? 0 : message.valueLength(text));
            report.reset('8').append(37, "O").append(11, message.buffer(), message.valueOffset(message.indexOf(11)),
                message.valueLength(message.indexOf(11))).append(17, "E").append(150, '0').append(39, '0').append(55, "EUR/USD")
                .append(54, '1').appendDecimal(151, 0, 0).appendDecimal(14, 100, 0).appendDecimal(6, 0, 0);
            session.trySend(report);
            return Action.CONTINUE;
        }
    }
}
