package org.fixlab.engine.session;

import java.util.List;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MessageEncoder;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Logon exchange from both sides, sequence resets on Logon, and what happens without one. */
class LogonTest
{
    @Test
    void acceptorAnswersLogonWithThePeersHeartBtInt()
    {
        final SessionHarness h = SessionHarness.acceptor();
        h.connect();
        assertEquals(SessionState.AWAITING_LOGON, h.session.state());

        h.receive(h.peer.logon(1, 17));

        final FixFrame logon = h.sentOne();
        assertEquals("A", logon.msgType());
        assertEquals(1, logon.seqNum());
        assertEquals("ISLD", logon.value(Fix.SENDER_COMP_ID));
        assertEquals("TW", logon.value(Fix.TARGET_COMP_ID));
        assertEquals("98=0|108=17|", logon.body(), "HeartBtInt echoed, no ResetSeqNumFlag");
        assertEquals(SessionState.ACTIVE, h.session.state());
        assertEquals(1, h.application.logons);
        assertEquals(2, h.session.nextSenderSeqNum());
        assertEquals(2, h.session.nextTargetSeqNum());
        assertEquals(2, h.store.nextSenderSeqNum(), "the store follows the session");
        assertEquals(2, h.store.nextTargetSeqNum());
    }

    @Test
    void acceptorResetsBothSequenceNumbersOnLogonWithResetSeqNumFlag()
    {
        final SessionHarness h = new SessionHarness(SessionRole.ACCEPTOR, new SessionSettings(), SessionHarness.storeAt(10, 7));
        h.connect();

        h.receive(h.peer.logon(1, 30).field(Fix.RESET_SEQ_NUM_FLAG, "Y"));

        final FixFrame logon = h.sentOne();
        assertEquals(1, logon.seqNum());
        assertEquals("Y", logon.value(Fix.RESET_SEQ_NUM_FLAG), "the answer repeats 141=Y");
        assertEquals(2, h.session.nextSenderSeqNum());
        assertEquals(2, h.session.nextTargetSeqNum());
    }

    @Test
    void aLogonWithResetSeqNumFlagOnAnActiveSessionStartsBothSidesOver()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        h.receiveHeartbeats(2, 3);
        h.sent();

        h.receive(h.peer.logon(1, 30).field(Fix.RESET_SEQ_NUM_FLAG, "Y"));

        final FixFrame logon = h.sentOne();
        assertEquals("A", logon.msgType());
        assertEquals(1, logon.seqNum());
        assertEquals("Y", logon.value(Fix.RESET_SEQ_NUM_FLAG));
        assertEquals(SessionState.ACTIVE, h.session.state());
        assertEquals(2, h.session.nextTargetSeqNum());
    }

    @Test
    void aLogonAboveTheExpectedMsgSeqNumIsAnsweredAndThenTheGapRequested()
    {
        final SessionHarness h = SessionHarness.acceptor();
        h.connect();

        h.receive(h.peer.logon(5, 30));

        final List<FixFrame> sent = h.sent();
        assertEquals(2, sent.size(), sent::toString);
        assertEquals("A", sent.get(0).msgType());
        assertEquals("2", sent.get(1).msgType());
        assertEquals("7=1|16=0|", sent.get(1).body());
        assertEquals(SessionState.ACTIVE, h.session.state());
    }

    @Test
    void initiatorSendsLogonOnConnectAndIsActiveOnTheAnswer()
    {
        final SessionHarness h = new SessionHarness(SessionRole.INITIATOR, new SessionSettings().heartbeatIntervalSeconds(15));

        h.connect();

        final FixFrame logon = h.sentOne();
        assertEquals("A", logon.msgType());
        assertEquals(1, logon.seqNum());
        assertEquals("98=0|108=15|", logon.body());
        assertEquals(SessionState.AWAITING_LOGON, h.session.state());

        h.receive(h.peer.logon(1, 15));

        assertEquals(List.of(), h.sent(), "an initiator does not answer the answer");
        assertEquals(SessionState.ACTIVE, h.session.state());
        assertEquals(2, h.session.nextTargetSeqNum());
    }

    @Test
    void initiatorWithSendResetSeqNumFlagStartsAtOneAndSends141()
    {
        final SessionHarness h = new SessionHarness(SessionRole.INITIATOR, new SessionSettings().sendResetSeqNumFlag(true),
            SessionHarness.storeAt(40, 50));

        h.connect();

        final FixFrame logon = h.sentOne();
        assertEquals(1, logon.seqNum());
        assertEquals("Y", logon.value(Fix.RESET_SEQ_NUM_FLAG));

        h.receive(h.peer.logon(1, 30).field(Fix.RESET_SEQ_NUM_FLAG, "Y"));

        assertEquals(List.of(), h.sent(), "the acceptor's 141=Y confirms our reset: no second reset, no ResendRequest");
        assertEquals(SessionState.ACTIVE, h.session.state());
        assertEquals(2, h.session.nextSenderSeqNum());
        assertEquals(2, h.session.nextTargetSeqNum());
    }

    @Test
    void acceptorWithoutALogonIsDisconnectedAfterTheLogonTimeout()
    {
        final SessionHarness h = new SessionHarness(SessionRole.ACCEPTOR, new SessionSettings().logonTimeoutSeconds(10));
        h.connect();

        h.advanceSeconds(10);
        assertEquals(SessionState.AWAITING_LOGON, h.session.state(), "the timeout is not over yet");

        h.advanceMillis(1);
        h.assertDisconnected();
        assertEquals(List.of(), h.sent(), "dropped without a word");
        assertTrue(h.transport.disconnectReason().contains("no Logon"), h.transport.disconnectReason());
        assertEquals(0, h.application.logouts, "never logged on, so never logged out");
    }

    @Test
    void aFirstMessageThatIsNotALogonIsDroppedWithTheConnection()
    {
        final SessionHarness h = SessionHarness.acceptor();
        h.connect();

        h.receive(h.peer.heartbeat(1));

        h.assertDisconnected();
        assertEquals(List.of(), h.sent());
        assertEquals(1, h.session.nextTargetSeqNum());
    }

    @Test
    void aNegativeHeartBtIntIsRefusedWithALogout()
    {
        final SessionHarness h = SessionHarness.acceptor();
        h.connect();

        h.receive(h.peer.logon(1, -1));

        final FixFrame logout = h.sentOne();
        assertEquals("5", logout.msgType());
        assertEquals("HeartBtInt must not be negative", logout.value(Fix.TEXT));
        h.assertDisconnected();
    }

    @Test
    void trySendIsRefusedUntilLoggedOnWithoutUsingASequenceNumber()
    {
        final SessionHarness h = SessionHarness.acceptor();
        final MessageEncoder order = new MessageEncoder().reset('D').append(11, "A");

        assertEquals(SendResult.NOT_LOGGED_ON, h.session.trySend(order), "not connected");
        h.connect();
        assertEquals(SendResult.NOT_LOGGED_ON, h.session.trySend(order), "connected, no Logon yet");

        assertEquals(List.of(), h.sent());
        assertEquals(1, h.session.nextSenderSeqNum());
        assertFalse(h.session.isLoggedOn());
    }
}
