package org.fixlab.engine.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.store.MemoryStore;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application refusing a message for now ({@link Action#ABORT}), ResendRequests that overlap a
 * running resend, and the real reasons for the highest MsgSeqNum and for a message over the field
 * limit, on the real session over an in-memory transport.
 */
class BackPressureTest
{
    @Test
    void anAbortedMessageKeepsItsMsgSeqNumAndIsDeliveredAgain()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        h.application.abortNext = 2;
        final String order = h.peer.order(2).frame();

        assertFalse(h.receive(order), "refused: not consumed");
        assertEquals(2, h.session.nextTargetSeqNum(), "its MsgSeqNum is still expected");
        assertFalse(h.receive(order), "refused again");
        assertEquals(2, h.session.nextTargetSeqNum());
        assertTrue(h.receive(order), "the third delivery is taken");

        assertEquals(List.of(2, 2), h.application.abortedSeqNums);
        assertEquals(List.of(2), h.application.appSeqNums(), "taken once, under its own MsgSeqNum");
        assertEquals(3, h.session.nextTargetSeqNum());
        assertEquals(3, h.store.nextTargetSeqNum(), "the store never saw the refused number consumed");
        assertEquals(List.of(), h.sent(), "no ResendRequest, no Reject: nothing was missing");
        assertTrue(h.receive(h.peer.order(3)));
        assertEquals(List.of(2, 3), h.application.appSeqNums());
    }

    /** The redelivery comes long after the SendingTime was checked once: it is not refused for its age. */
    @Test
    void aRedeliveryIsNotRejectedForASendingTimeThatAgedWhileItWaited()
    {
        final SessionHarness h = loggedOnAcceptor(30, new SessionSettings().checkLatency(true).maxLatencySeconds(2));
        h.application.abortNext = 1;
        final String order = h.peer.order(2).frame();
        assertFalse(h.receive(order));

        h.clock.advance(java.util.concurrent.TimeUnit.SECONDS.toNanos(5));

        assertTrue(h.receive(order));
        assertEquals(List.of(2), h.application.appSeqNums());
        assertEquals(List.of(), h.sent(), "no Reject for SendingTime accuracy");
    }

    /**
     * An order held in the gap queue and refused when its turn comes stays queued; the session's duty
     * cycle delivers it again, and nothing newer is processed before it.
     */
    @Test
    void aQueuedMessageRefusedWhenItsTurnComesIsDeliveredAgainBeforeAnythingNewer()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        assertTrue(h.receive(h.peer.order(3)), "ahead of a gap: queued");
        assertEquals("2", h.sentOne().msgType(), "ResendRequest for the gap");
        h.application.abortOnly(3, 2);
        final String four = h.peer.order(4).frame();

        assertTrue(h.receive(h.peer.order(2).possDup(h.clock.nanoTime())), "2 itself is taken");
        assertEquals(List.of(2), h.application.appSeqNums());
        assertEquals(3, h.session.nextTargetSeqNum(), "3 was refused and waits in the queue");
        assertFalse(h.receive(four), "4 is held behind the refused 3 (its next delivery refuses 3 again)");
        assertEquals(List.of(2), h.application.appSeqNums());

        h.advanceMillis(1);
        assertEquals(List.of(2, 3), h.application.appSeqNums(), "the duty cycle delivered 3 again");
        assertTrue(h.receive(four));
        assertEquals(List.of(2, 3, 4), h.application.appSeqNums());
        assertEquals(List.of(3, 3), h.application.abortedSeqNums);
        assertEquals(List.of(), h.sent(), "no second ResendRequest");
    }

    /**
     * A burst of overlapping and repeated ResendRequests while a resend runs: every message the peer
     * needs goes once, however many requests named it; a request after the resend finished is a new
     * need and is answered again.
     */
    @Test
    void overlappingResendRequestsCoalesceIntoOneResend()
    {
        final SessionHarness h = loggedOnAcceptor(30, new SessionSettings().resendChunkMessages(10));
        final MessageEncoder order = new MessageEncoder();
        for (int i = 0; i < 300; i++)
        {
            assertTrue(h.session.trySend(order.reset('D').append(11, "C" + i).append(55, "IBM")) > 0);
        }
        h.sent();
        final int last = h.session.nextSenderSeqNum() - 1; // 301
        int peerSeqNum = 2;
        final List<FixFrame> resent = new ArrayList<>();
        final int[][] requests = {{1, 0}, {1, 0}, {1, 301}, {50, 120}, {100, 0}, {2, 999_999}, {1, 0}, {250, 400}};
        for (final int[] request : requests)
        {
            assertTrue(h.receive(h.peer.message(MsgTypes.RESEND_REQUEST, peerSeqNum++).field(Fix.BEGIN_SEQ_NO, request[0])
                .field(Fix.END_SEQ_NO, request[1])));
            resent.addAll(h.sent());
            h.advanceMillis(1);
            resent.addAll(h.sent());
        }
        for (int cycle = 0; cycle < 100; cycle++)
        {
            h.advanceMillis(1);
            resent.addAll(h.sent());
        }

        final Map<Integer, Integer> timesSent = timesSent(resent);
        assertEquals(last, timesSent.size(), "every MsgSeqNum 1.." + last + " accounted for: " + timesSent.keySet());
        timesSent.forEach((seqNum, times) -> assertEquals(1, times, "MsgSeqNum " + seqNum + " sent " + times + " times"));
        assertTrue(resent.stream().allMatch(m -> "Y".equals(m.value(Fix.POSS_DUP_FLAG))));

        // finished: the same request again is a new need
        assertTrue(h.receive(h.peer.message(MsgTypes.RESEND_REQUEST, peerSeqNum).field(Fix.BEGIN_SEQ_NO, 290).field(Fix.END_SEQ_NO, 0)));
        final List<FixFrame> again = new ArrayList<>(h.sent());
        h.advanceMillis(1);
        again.addAll(h.sent());
        assertEquals(12, again.size(), "290.." + last + " once more");
        timesSent(again).forEach((seqNum, times) -> assertEquals(1, times));
    }

    /** A request reaching back before the running resend restarts from there (what it asks for is new). */
    @Test
    void aRequestReachingFurtherBackRestartsTheResendThere()
    {
        final SessionHarness h = loggedOnAcceptor(30, new SessionSettings().resendChunkMessages(10));
        final MessageEncoder order = new MessageEncoder();
        for (int i = 0; i < 50; i++)
        {
            assertTrue(h.session.trySend(order.reset('D').append(11, "C" + i).append(55, "IBM")) > 0);
        }
        h.sent();
        assertTrue(h.receive(h.peer.message(MsgTypes.RESEND_REQUEST, 2).field(Fix.BEGIN_SEQ_NO, 30).field(Fix.END_SEQ_NO, 0)));
        final List<FixFrame> resent = new ArrayList<>(h.sent());
        assertTrue(h.receive(h.peer.message(MsgTypes.RESEND_REQUEST, 3).field(Fix.BEGIN_SEQ_NO, 5).field(Fix.END_SEQ_NO, 10)));
        for (int cycle = 0; cycle < 20; cycle++)
        {
            h.advanceMillis(1);
            resent.addAll(h.sent());
        }
        final Map<Integer, Integer> timesSent = timesSent(resent);
        for (int seqNum = 5; seqNum <= 51; seqNum++)
        {
            assertTrue(timesSent.containsKey(seqNum), "MsgSeqNum " + seqNum + " resent");
        }
    }

    /**
     * MsgSeqNum 2147483647 is a valid number (the highest an int holds): a message carrying it ahead
     * of the expected number is a sequence gap, not a message without MsgSeqNum.
     */
    @Test
    void msgSeqNum2147483647AheadOfTheExpectedOneIsAGap()
    {
        final SessionHarness h = loggedOnAcceptor(30);

        assertTrue(h.receive(h.peer.heartbeat(Integer.MAX_VALUE)));

        final FixFrame request = h.sentOne();
        assertEquals("2", request.msgType(), "a ResendRequest, not a Logout: " + request);
        assertEquals(2, request.intValue(Fix.BEGIN_SEQ_NO));
        assertEquals(SessionState.ACTIVE, h.session.state());
    }

    /**
     * When 2147483647 is the expected number the message is processed; no number can follow it, so
     * the session then logs out saying that, instead of wrapping to a negative MsgSeqNum.
     */
    @Test
    void afterMsgSeqNum2147483647TheSessionLogsOutAskingForAReset()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        assertTrue(h.receive(h.peer.message(MsgTypes.SEQUENCE_RESET, 2).field(Fix.NEW_SEQ_NO, Integer.MAX_VALUE)));
        assertEquals(Integer.MAX_VALUE, h.session.nextTargetSeqNum());
        h.sent();

        assertTrue(h.receive(h.peer.order(Integer.MAX_VALUE)));

        assertEquals(List.of(Integer.MAX_VALUE), h.application.appSeqNums(), "the last order is delivered");
        final FixFrame logout = h.sentOne();
        assertEquals("5", logout.msgType());
        assertTrue(logout.value(58).contains("2147483647") && logout.value(58).contains("reset"), logout.toString());
        h.assertDisconnected();
        assertTrue(h.transport.disconnectReason().contains("2147483647"), h.transport.disconnectReason());
    }

    /** Our own numbers: the last one, 2147483647, carries our Logout instead of an order. */
    @Test
    void atMsgSeqNum2147483647OurSideLogsOutInsteadOfSending()
    {
        final SessionHarness h = new SessionHarness(SessionRole.ACCEPTOR, new SessionSettings(),
            SessionHarness.storeAt(Integer.MAX_VALUE - 2, 1));
        h.connect();
        assertTrue(h.receive(h.peer.logon(1, 30)));
        assertEquals(Integer.MAX_VALUE - 2, h.sentOne().seqNum(), "our Logon");
        final MessageEncoder order = new MessageEncoder().reset('D').append(11, "LAST").append(55, "IBM");

        assertEquals(Integer.MAX_VALUE - 1, h.session.trySend(order));
        assertEquals(SendResult.NOT_LOGGED_ON, h.session.trySend(order), "no order under the last number");

        final List<FixFrame> sent = h.sent();
        assertEquals(2, sent.size(), sent::toString);
        assertEquals("5", sent.get(1).msgType());
        assertEquals(Integer.MAX_VALUE, sent.get(1).seqNum());
        assertTrue(sent.get(1).value(58).contains("reset"), sent.get(1).toString());
        assertEquals(SessionState.LOGOUT_SENT, h.session.state());
        assertEquals(SendResult.NOT_LOGGED_ON, h.session.trySend(order));
        assertEquals(List.of(), h.sent(), "nothing after it");
    }

    /** A message with more fields than the engine decodes is dropped, and the log says that, not "garbled". */
    @Test
    void aMessageOverTheFieldLimitIsLoggedWithThatReason()
    {
        final List<String> warnings = new ArrayList<>();
        final SessionLog log = new SessionLog()
        {
            @Override
            public void info(final SessionId session, final String event)
            {
            }

            @Override
            public void warn(final SessionId session, final String event)
            {
                warnings.add(event);
            }
        };
        final CachedNanoClock clock = new CachedNanoClock();
        clock.update(SessionHarness.START_NANOS);
        final Counterparty peer = new Counterparty(FixVersion.FIX44, SessionHarness.THEM, SessionHarness.US, clock);
        final Session session = new Session(new SessionId(FixVersion.FIX44, SessionHarness.US, SessionHarness.THEM),
            SessionRole.ACCEPTOR, new SessionSettings(), new MemoryStore(1 << 20), new RecordingApplication(), clock::nanoTime, log, 16);
        session.onConnect(new RecordingTransport(), clock.nanoTime());
        deliver(session, peer.logon(1, 30).frame(), clock);
        final Counterparty.Message wide = peer.order(2);
        for (int i = 0; i < 20; i++)
        {
            wide.field(5000 + i, "x");
        }

        deliver(session, wide.frame(), clock);

        assertEquals(List.of("dropped garbled message: more than the engine's limit of 16 fields"), warnings);
        assertEquals(SessionState.ACTIVE, session.state());
        assertEquals(2, session.nextTargetSeqNum(), "dropped: the resend of a gap brings it again");
    }

    private static void deliver(final Session session, final String frame, final CachedNanoClock clock)
    {
        final UnsafeBuffer buffer = FixFrame.buffer(frame);
        assertTrue(session.onMessage(buffer, 0, buffer.capacity(), clock.nanoTime()));
    }

    private static Map<Integer, Integer> timesSent(final List<FixFrame> messages)
    {
        final Map<Integer, Integer> times = new TreeMap<>();
        for (final FixFrame message : messages)
        {
            final int first = message.seqNum();
            final int last = "4".equals(message.msgType()) ? message.intValue(Fix.NEW_SEQ_NO) - 1 : first;
            for (int seqNum = first; seqNum <= last; seqNum++)
            {
                times.merge(seqNum, 1, Integer::sum);
            }
        }
        return times;
    }
}
