package org.fixlab.engine.reliability;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.fixlab.engine.tools.EchoApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.fixlab.engine.reliability.RawFixPeer.field;
import static org.fixlab.engine.reliability.RawFixPeer.pipes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * No answer lost under back-pressure, over real TCP on loopback against the conformance acceptor's
 * echo application: a burst of ResendRequests followed by an order, a TestRequest flood from a peer
 * that keeps reading, a peer that stops reading, and an application that refuses orders for a while.
 */
class BackPressureSystemTest
{
    private static final int HEART_BT_INT = 30;

    @TempDir
    Path dir;

    private static String order(final RawFixPeer peer, final String clOrdId)
    {
        return peer.message("D", "11=" + clOrdId + "|21=1|55=EUR/USD|54=1|60=20240102-10:00:00.000|38=100|40=2|44=1.1|");
    }

    /**
     * The issue's scenario: a 300-message session, then 25 ResendRequests for all of it and an order in
     * one write. Every message is resent, the order's echo arrives under the next MsgSeqNum (302), often
     * before the resend ends, and the session goes on in sequence; the requests coalesce instead of
     * restarting 25 resends.
     */
    @Test
    void anOrderAfterABurstOfResendRequestsIsAnswered()
    {
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> { });
            RawFixPeer peer = acceptor.attacker())
        {
            peer.logon(HEART_BT_INT);
            final StringBuilder orders = new StringBuilder();
            for (int i = 0; i < 300; i++)
            {
                orders.append(order(peer, "O" + i));
            }
            peer.send(orders.toString());
            for (int i = 0; i < 300; i++)
            {
                assertEquals("O" + i, field(peer.await("D", 10_000), 11));
            }
            final int acceptorSent = acceptor.onEngineThread(() -> acceptor.attacked().nextSenderSeqNum()) - 1;
            assertEquals(301, acceptorSent, "Logon and 300 echoes");

            final StringBuilder burst = new StringBuilder();
            for (int i = 0; i < 25; i++)
            {
                burst.append(peer.message("2", "7=1|16=0|"));
            }
            burst.append(order(peer, "LAST"));
            peer.sendBytes(burst.toString().getBytes(StandardCharsets.ISO_8859_1));

            final Map<Integer, Integer> resent = new HashMap<>();
            String answer = null;
            final long deadline = System.currentTimeMillis() + 20_000;
            // the answer need not wait for the resend to finish: new messages are served between its chunks
            while (answer == null || resent.size() < acceptorSent)
            {
                final String message = peer.next(Math.max(1, deadline - System.currentTimeMillis()));
                if (message == null)
                {
                    fail((peer.isClosedByPeer() ? "connection closed" : "timed out") + "; answer to LAST " +
                        (answer == null ? "missing" : "received") + ", " + resent.size() + " MsgSeqNums resent");
                }
                final String type = field(message, 35);
                assertFalse("5".equals(type) || "3".equals(type), () -> "unexpected " + pipes(message));
                final int seqNum = Integer.parseInt(field(message, 34));
                if ("Y".equals(field(message, 43)))
                {
                    final int last = "4".equals(type) ? Integer.parseInt(field(message, 36)) - 1 : seqNum;
                    for (int s = seqNum; s <= last; s++)
                    {
                        resent.merge(s, 1, Integer::sum);
                    }
                }
                else if ("LAST".equals(field(message, 11)))
                {
                    answer = message;
                }
            }
            assertEquals("302", field(answer, 34), "the answer takes the next MsgSeqNum: " + pipes(answer));
            for (int seqNum = 1; seqNum <= acceptorSent; seqNum++)
            {
                assertTrue(resent.containsKey(seqNum), "MsgSeqNum " + seqNum + " was resent");
            }
            final int totalResent = resent.values().stream().mapToInt(Integer::intValue).sum();
            System.out.printf("resend burst: 25 ResendRequests for 1..%d answered with %d resent MsgSeqNums%n", acceptorSent,
                totalResent);
            assertTrue(totalResent < 2 * acceptorSent, "25 requests restarted the resend: " + totalResent + " resent");

            // the session is in sequence both ways: the next order is answered as 303
            peer.send(order(peer, "AFTER"));
            final String after = peer.await("D", 5_000);
            assertEquals("AFTER", field(after, 11));
            assertEquals("303", field(after, 34));
            assertEquals(peer.nextSeqNum(), (int)acceptor.onEngineThread(() -> acceptor.attacked().nextTargetSeqNum()));
            acceptor.assertHealthy();
        }
    }

    /**
     * While a long resend waits on a peer that is not reading yet, the other session on the engine is
     * served as usual; and an order sent right behind the ResendRequest is answered after the first
     * chunk of the resend, not after all of it.
     */
    @Test
    void aLongResendLeavesOtherSessionsAndNewMessagesServed()
    {
        final int orders = 3_000;
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> c.set("socketSendBufferSize", "16384"));
            RawFixPeer peer = acceptor.attacker(16_384))
        {
            peer.logon(HEART_BT_INT);
            for (int batch = 0; batch < orders; batch += 100)
            {
                final StringBuilder some = new StringBuilder();
                for (int i = batch; i < batch + 100; i++)
                {
                    some.append(order(peer, "O" + i));
                }
                peer.send(some.toString());
                for (int i = batch; i < batch + 100; i++)
                {
                    assertEquals("O" + i, field(peer.await("D", 10_000), 11));
                }
            }
            final int acceptorSent = orders + 1;
            peer.send(peer.message("2", "7=1|16=0|") + order(peer, "NEW"));
            // not reading for a while: the resend stalls on back-pressure, the other session must not
            for (int i = 0; i < 5; i++)
            {
                acceptor.assertHealthy();
            }
            final Map<Integer, Integer> resent = new HashMap<>();
            int resentBeforeAnswer = -1;
            final long deadline = System.currentTimeMillis() + 30_000;
            while (resentBeforeAnswer < 0 || resent.size() < acceptorSent)
            {
                final String message = peer.next(Math.max(1, deadline - System.currentTimeMillis()));
                assertNotNull(message, () -> "timed out with " + resent.size() + " MsgSeqNums resent");
                final String type = field(message, 35);
                if ("Y".equals(field(message, 43)))
                {
                    final int seqNum = Integer.parseInt(field(message, 34));
                    final int last = "4".equals(type) ? Integer.parseInt(field(message, 36)) - 1 : seqNum;
                    for (int s = seqNum; s <= last; s++)
                    {
                        resent.merge(s, 1, Integer::sum);
                    }
                }
                else if ("NEW".equals(field(message, 11)))
                {
                    resentBeforeAnswer = resent.size();
                    assertEquals(String.valueOf(acceptorSent + 1), field(message, 34));
                }
            }
            System.out.printf("long resend: the new order was answered after %d of %d resent MsgSeqNums%n", resentBeforeAnswer,
                acceptorSent);
            assertTrue(resentBeforeAnswer < acceptorSent / 2, "the new order waited for the resend: answered after " +
                resentBeforeAnswer + " of " + acceptorSent);
            acceptor.assertHealthy();
        }
    }

    /**
     * A peer that floods TestRequests faster than the acceptor's small outbound buffer drains, but
     * keeps reading: every TestRequest gets its Heartbeat and the session is never reset.
     */
    @Test
    void aTestRequestFloodFromAPeerThatKeepsReadingIsServed() throws Exception
    {
        final int requests = 20_000;
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> c.set("outboundBufferSize", "2048")
            .set("socketSendBufferSize", "4096").set("slowReaderTimeoutMs", "2000"));
            RawFixPeer peer = acceptor.attacker(4096))
        {
            peer.logon(HEART_BT_INT);
            final AtomicInteger written = new AtomicInteger();
            final Thread writer = new Thread(() ->
            {
                final StringBuilder batch = new StringBuilder();
                for (int i = 0; i < requests; i++)
                {
                    batch.append(peer.message("1", "112=T" + i + "|"));
                    if (batch.length() > 8_192 || i == requests - 1)
                    {
                        if (!peer.trySendBytes(batch.toString().getBytes(StandardCharsets.ISO_8859_1)))
                        {
                            return;
                        }
                        batch.setLength(0);
                        written.set(i + 1);
                    }
                }
            }, "test-request-flood");
            writer.start();
            int heartbeats = 0;
            final long deadline = System.currentTimeMillis() + 60_000;
            while (heartbeats < requests)
            {
                final String message = peer.next(Math.max(1, deadline - System.currentTimeMillis()));
                assertNotNull(message, () -> (peer.isClosedByPeer() ? "the acceptor closed the connection" : "timed out") +
                    " after " + written.get() + " TestRequests written and " + peer.received().size() + " messages read");
                assertEquals("0", field(message, 35), () -> "only Heartbeats expected: " + pipes(message));
                assertEquals("T" + heartbeats, field(message, 112), "answers in order, none lost");
                heartbeats++;
            }
            writer.join(10_000);
            assertEquals(requests, written.get());
            assertTrue(acceptor.onEngineThread(() -> acceptor.attacked().isLoggedOn()), "the session is still up");
            acceptor.assertHealthy();
        }
    }

    /** A peer that reads nothing at all is cut off once its buffer made no progress for slowReaderTimeoutMs, saying so. */
    @Test
    void aPeerThatStopsReadingIsDisconnectedAfterTheSlowReaderTimeout()
    {
        final long timeoutMs = 500;
        final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        final SessionLog recording = new SessionLog()
        {
            @Override
            public void info(final SessionId session, final String event)
            {
                log.add((session == null ? "engine" : session) + " " + event);
            }

            @Override
            public void warn(final SessionId session, final String event)
            {
                log.add((session == null ? "engine" : session) + " WARN " + event);
            }
        };
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> c.set("socketSendBufferSize", "16384")
            .set("slowReaderTimeoutMs", String.valueOf(timeoutMs)), recording, new EchoApplication());
            RawFixPeer peer = acceptor.attacker(4096))
        {
            peer.logon(HEART_BT_INT);
            final MessageEncoder report = new MessageEncoder();
            long backPressuredAt = 0;
            while (backPressuredAt == 0)
            {
                if (acceptor.onEngineThread(() -> fillUntilBackPressured(acceptor.attacked(), report)))
                {
                    backPressuredAt = System.nanoTime();
                }
            }
            String reason = null;
            final long deadline = backPressuredAt + TimeUnit.SECONDS.toNanos(10);
            while (reason == null)
            {
                assertTrue(System.nanoTime() < deadline, "a peer that reads nothing was never disconnected");
                reason = acceptor.onEngineThread(() -> acceptor.attacked().isConnected() ? null : acceptor.attacked().disconnectReason());
                acceptor.assertHealthy();
            }
            final long afterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - backPressuredAt);
            assertTrue(reason.startsWith("slow reader"), reason);
            assertTrue(afterMs >= timeoutMs - 50, "disconnected " + afterMs + " ms after the buffer filled: " + reason);
            final String expectedLine = "FIX.4.4:" + AcceptorUnderAttack.ACCEPTOR + "->" + AcceptorUnderAttack.ATTACKER;
            final List<String> lines = new ArrayList<>(log);
            assertTrue(lines.stream().anyMatch(line -> line.contains("disconnected: slow reader") && line.contains("ms")),
                () -> "no log line for the slow reader: " + lines + " (session " + expectedLine + ")");
        }
    }

    /** On the engine thread: answers reports to the attacked session until trySend reports back-pressure. */
    private static boolean fillUntilBackPressured(final Session session, final MessageEncoder report)
    {
        for (int i = 0; i < 10_000; i++)
        {
            report.reset('8').append(37, "O1").append(11, "SLOW" + i).append(17, i).append(150, '0').append(39, '0')
                .append(55, "EUR/USD").append(54, '1').appendDecimal(151, 100, 0).appendDecimal(14, 0, 0).appendDecimal(6, 0, 0)
                .append(58, "padding to about two hundred and fifty six bytes per message, padding, padding, padding");
            final long result = session.trySend(report);
            if (result == SendResult.BACK_PRESSURED)
            {
                return true;
            }
            assertTrue(result > 0, SendResult.describe(result));
        }
        return false;
    }

    /**
     * An application that refuses every order twice before echoing it: each order is answered once,
     * in order, under consecutive MsgSeqNums, and the session never asks for a resend.
     */
    @Test
    void ordersRefusedForAWhileAreAnsweredOnceInOrder()
    {
        final EchoApplication echo = new EchoApplication();
        final Map<String, Integer> deliveries = new HashMap<>();
        final Application refusingTwice = new Application()
        {
            @Override
            public Action onAppMessage(final Session session, final MessageDecoder message)
            {
                if (deliveries.merge(message.stringValue(11), 1, Integer::sum) <= 2)
                {
                    return Action.ABORT;
                }
                return echo.onAppMessage(session, message);
            }
        };
        final int orders = 50;
        try (AcceptorUnderAttack acceptor = new AcceptorUnderAttack(dir, c -> { }, SessionLog.SILENT, refusingTwice);
            RawFixPeer peer = acceptor.attacker())
        {
            peer.logon(HEART_BT_INT);
            final StringBuilder burst = new StringBuilder();
            for (int i = 0; i < orders; i++)
            {
                burst.append(order(peer, "R" + i));
            }
            peer.send(burst.toString());
            for (int i = 0; i < orders; i++)
            {
                final String answer = peer.next(10_000);
                assertNotNull(answer, "answer " + i + " never came");
                assertEquals("D", field(answer, 35), () -> "only echoes expected: " + pipes(answer));
                assertEquals("R" + i, field(answer, 11));
                assertEquals(String.valueOf(i + 2), field(answer, 34));
            }
            assertEquals(null, peer.next(200), "nothing more: no ResendRequest, Reject or repeat");
            final int expected = peer.nextSeqNum();
            assertEquals(expected, (int)acceptor.onEngineThread(() -> acceptor.attacked().nextTargetSeqNum()));
            final Map<String, Integer> seen = acceptor.onEngineThread(() -> new HashMap<>(deliveries));
            seen.forEach((clOrdId, times) -> assertEquals(3, times, clOrdId + " delivered " + times + " times"));
            assertEquals(orders, seen.size());
        }
    }
}
