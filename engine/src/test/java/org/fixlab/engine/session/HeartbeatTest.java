package org.fixlab.engine.session;

import java.util.ArrayList;
import java.util.List;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MessageEncoder;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timers of an active session with QuickFIX/J's multipliers: Heartbeat after HeartBtInt without
 * sending, TestRequest after 1.5 x HeartBtInt without receiving, disconnect after 2.4 x.
 */
class HeartbeatTest
{
    /**
     * Runs duty cycles every 100 ms for {@code seconds} and lists what happened, one line per event,
     * as "seconds since logon: what", so a test states the whole timeline at once.
     */
    private static List<String> timeline(final SessionHarness h, final int seconds)
    {
        final List<String> events = new ArrayList<>();
        for (int tenths = 1; tenths <= seconds * 10 && h.session.isConnected(); tenths++)
        {
            h.advanceMillis(100);
            final String at = String.format("%.1f: ", (h.clock.nanoTime() - SessionHarness.START_NANOS) / 1e9);
            for (final FixFrame message : h.sent())
            {
                events.add(at + "35=" + message.msgType() + (message.has(Fix.TEST_REQ_ID) ? " 112=" + message.value(Fix.TEST_REQ_ID) : ""));
            }
            if (!h.session.isConnected())
            {
                events.add(at + "disconnected");
            }
        }
        return events;
    }

    @Test
    void silentPeerGetsHeartbeatThenTestRequestThenIsDisconnected()
    {
        final SessionHarness h = loggedOnAcceptor(10);

        assertEquals(List.of("10.0: 35=0", "15.0: 35=1 112=TEST", "24.0: disconnected"), timeline(h, 60));
        assertTrue(h.transport.disconnectReason().startsWith("heartbeat timeout"), h.transport.disconnectReason());
        assertEquals(1, h.application.logouts);
    }

    @Test
    void heartbeatsRepeatWhileThePeerKeepsTalking()
    {
        final SessionHarness h = loggedOnAcceptor(10);
        final List<String> events = new ArrayList<>();
        for (int seqNum = 2; seqNum <= 4; seqNum++)
        {
            events.addAll(timeline(h, 9));
            h.receive(h.peer.heartbeat(seqNum));
        }

        assertEquals(List.of("10.0: 35=0", "20.0: 35=0"), events, "9 s between the peer's messages never reach 15 s");
        assertEquals(SessionState.ACTIVE, h.session.state());
        assertEquals(5, h.session.nextTargetSeqNum());
    }

    @Test
    void theHeartbeatIntervalCountsFromTheLastMessageSent()
    {
        final SessionHarness h = loggedOnAcceptor(10);
        h.advanceSeconds(6);
        h.receive(h.peer.heartbeat(2));
        assertTrue(h.session.trySend(new MessageEncoder().reset('D').append(11, "A")) > 0);
        h.sent();

        assertEquals(List.of("16.0: 35=0"), timeline(h, 10), "10 s after the order, not 10 s after the last Heartbeat");
    }

    @Test
    void anAnsweredTestRequestKeepsTheSessionUp()
    {
        final SessionHarness h = loggedOnAcceptor(10);
        assertEquals(List.of("10.0: 35=0", "15.0: 35=1 112=TEST"), timeline(h, 15));

        h.receive(h.peer.heartbeat(2).field(Fix.TEST_REQ_ID, "TEST"));

        assertEquals(List.of("25.0: 35=0", "30.0: 35=1 112=TEST"), timeline(h, 15),
            "the timers start over: Heartbeat 10 s after our TestRequest, the next TestRequest 15 s after the answer");
        assertEquals(SessionState.ACTIVE, h.session.state());
    }

    @Test
    void aTestRequestIsAnsweredWithAHeartbeatEchoingTestReqId()
    {
        final SessionHarness h = loggedOnAcceptor(30);

        h.receive(h.peer.message('1', 2).field(Fix.TEST_REQ_ID, "are you there?"));

        final FixFrame heartbeat = h.sentOne();
        assertEquals("0", heartbeat.msgType());
        assertEquals("112=are you there?|", heartbeat.body());
        assertEquals(2, heartbeat.seqNum());
        assertEquals(3, h.session.nextTargetSeqNum());
    }

    @Test
    void anInitiatorKeepsTheIntervalItProposed()
    {
        final SessionHarness h = new SessionHarness(SessionRole.INITIATOR, new SessionSettings().heartbeatIntervalSeconds(4));
        h.connect();
        h.receive(h.peer.logon(1, 4));
        h.sent();

        assertEquals(List.of("4.0: 35=0", "6.0: 35=1 112=TEST", "9.6: disconnected"), timeline(h, 20));
    }
}
