package org.fixlab.engine.session;

import java.util.ArrayList;
import java.util.List;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.store.MemoryStore;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sending through {@link Session#trySend}: back-pressure as a return value, what reaches the store,
 * and sequence numbers that outlive a connection (or not, with resetOnDisconnect) and a Session object.
 */
class SendAndStoreTest
{
    private static MessageEncoder order(final String clOrdId)
    {
        return new MessageEncoder().reset('D').append(11, clOrdId);
    }

    private static List<String> stored(final MemoryStore store)
    {
        final List<String> messages = new ArrayList<>();
        store.replay(1, Integer.MAX_VALUE, (seqNum, buffer, offset, length) ->
            messages.add(seqNum + ":" + FixFrame.parse(buffer.getStringWithoutLengthAscii(offset, length)).value(11)));
        return messages;
    }

    @Test
    void aSentMessageIsFramedStoredAndNumbered()
    {
        final SessionHarness h = loggedOnAcceptor(30);

        assertEquals(2, h.session.trySend(order("A")));

        final FixFrame sent = h.sentOne();
        assertEquals(2, sent.seqNum());
        assertEquals("11=A|", sent.body());
        assertEquals(List.of("2:A"), stored(h.store));
        assertEquals(3, h.store.nextSenderSeqNum());
    }

    @Test
    void backPressureIsReturnedAndCostsNeitherAStoredMessageNorASequenceNumber()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        h.transport.backPressured(true);

        assertEquals(SendResult.BACK_PRESSURED, h.session.trySend(order("A")));

        assertEquals(List.of(), h.sent());
        assertEquals(List.of(), stored(h.store));
        assertEquals(2, h.session.nextSenderSeqNum());
        assertEquals(2, h.store.nextSenderSeqNum());
        assertEquals(SessionState.ACTIVE, h.session.state(), "an application message may wait: the session stays up");

        h.transport.backPressured(false);
        assertEquals(2, h.session.trySend(order("A")), "the retry gets the number the refused attempt did not use");
        assertEquals(2, h.sentOne().seqNum());
    }

    @Test
    void aMessageLargerThanTheOutboundBufferIsTooLarge()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        final MessageEncoder huge = new MessageEncoder(128 * 1024).reset('D').append(58, "x".repeat(100_000));

        assertEquals(SendResult.TOO_LARGE, h.session.trySend(huge));
        assertEquals(2, h.session.nextSenderSeqNum());
    }

    /**
     * A full buffer may be momentary: a TestRequest that cannot be answered now is not consumed (the
     * transport delivers it again) and the session stays up; it is answered once there is room.
     * Peers that stopped reading are the transport's slow-reader timeout's business.
     */
    @Test
    void aMessageWhoseAnswerCannotBeBufferedWaitsForRoom()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        h.transport.backPressured(true);
        final String testRequest = h.peer.message(MsgTypes.TEST_REQUEST, 2).field(Fix.TEST_REQ_ID, "T").frame();

        assertFalse(h.receive(testRequest), "not consumed while there is no room for the Heartbeat");
        assertEquals(SessionState.ACTIVE, h.session.state());
        assertEquals(2, h.session.nextTargetSeqNum(), "its MsgSeqNum is not consumed");

        h.transport.backPressured(false);
        assertTrue(h.receive(testRequest), "delivered again, it is processed");
        final FixFrame heartbeat = h.sentOne();
        assertEquals("0", heartbeat.msgType());
        assertEquals("T", heartbeat.value(Fix.TEST_REQ_ID));
        assertEquals(3, h.session.nextTargetSeqNum());
    }

    @Test
    void sequenceNumbersSurviveADisconnectByDefault()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        h.session.trySend(order("A"));
        h.receive(h.peer.heartbeat(2));

        h.session.onDisconnect("network");

        assertEquals(3, h.session.nextSenderSeqNum());
        assertEquals(3, h.session.nextTargetSeqNum());
        assertEquals(List.of("2:A"), stored(h.store));
        assertEquals(1, h.application.logouts);
    }

    @Test
    void resetOnDisconnectStartsOverAtOneAndForgetsTheStoredMessages()
    {
        final SessionHarness h = loggedOnAcceptor(30, new SessionSettings().resetOnDisconnect(true));
        h.session.trySend(order("A"));
        h.receive(h.peer.heartbeat(2));

        h.session.onDisconnect("network");

        assertEquals(1, h.session.nextSenderSeqNum());
        assertEquals(1, h.session.nextTargetSeqNum());
        assertEquals(1, h.store.nextSenderSeqNum());
        assertEquals(List.of(), stored(h.store));

        h.connect();
        h.receive(h.peer.logon(1, 30));
        assertEquals(1, h.sentOne().seqNum(), "the next Logon starts from 1 without ResetSeqNumFlag");
    }

    @Test
    void aNewSessionOnTheSameStoreContinuesTheSequenceAndCanResend()
    {
        final SessionHarness first = loggedOnAcceptor(30);
        first.session.trySend(order("A"));
        first.session.trySend(order("B"));
        first.receive(first.peer.heartbeat(2));
        first.session.onDisconnect("process restart");

        final SessionHarness second = new SessionHarness(SessionRole.ACCEPTOR, new SessionSettings(), first.store);
        assertEquals(4, second.session.nextSenderSeqNum());
        assertEquals(3, second.session.nextTargetSeqNum());

        second.connect();
        second.receive(second.peer.logon(3, 30));
        assertEquals(4, second.sentOne().seqNum(), "the Logon answer continues the numbering");
        assertEquals(4, second.session.nextTargetSeqNum());

        second.receive(second.peer.message(MsgTypes.RESEND_REQUEST, 4).field(Fix.BEGIN_SEQ_NO, 2).field(Fix.END_SEQ_NO, 3));
        final List<FixFrame> resent = second.sent();
        assertEquals(List.of("11=A|", "11=B|"), resent.stream().map(FixFrame::body).toList(), "sent by the first Session object");
        assertEquals(List.of(2, 3), resent.stream().map(FixFrame::seqNum).toList());
    }
}
