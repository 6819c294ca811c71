package org.fixlab.engine.session;

import java.util.List;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Logout handshake from either side, and the timeout when the peer never answers. */
class LogoutTest
{
    private final SessionHarness h = loggedOnAcceptor(30);

    @Test
    void ourLogoutWaitsForThePeersAnswerThenCloses()
    {
        h.session.logout("end of day");

        final FixFrame logout = h.sentOne();
        assertEquals("5", logout.msgType());
        assertEquals("58=end of day|", logout.body());
        assertEquals(SessionState.LOGOUT_SENT, h.session.state());
        assertEquals(SendResult.NOT_LOGGED_ON, h.session.trySend(new MessageEncoder().reset('D')), "no orders after Logout");

        h.receive(h.peer.message(MsgTypes.LOGOUT, 2));

        assertEquals(List.of(), h.sent(), "the peer's Logout is the answer: nothing more to say");
        h.assertDisconnected();
        assertEquals(1, h.application.logouts);
        assertEquals(3, h.session.nextTargetSeqNum());
    }

    @Test
    void thePeersLogoutIsAnsweredThenTheConnectionCloses()
    {
        h.receive(h.peer.message(MsgTypes.LOGOUT, 2).field(Fix.TEXT, "bye"));

        final FixFrame logout = h.sentOne();
        assertEquals("5", logout.msgType());
        assertNull(logout.value(Fix.TEXT));
        h.assertDisconnected();
        assertEquals(1, h.application.logouts);
    }

    @Test
    void withoutAnAnswerOurLogoutClosesAfterTheLogoutTimeout()
    {
        h.session.logout(null);
        h.sent();

        h.advanceSeconds(2);
        assertEquals(SessionState.LOGOUT_SENT, h.session.state());
        h.advanceMillis(1);

        h.assertDisconnected();
        assertTrue(h.transport.disconnectReason().contains("no Logout answer"), h.transport.disconnectReason());
        assertEquals(List.of(), h.sent(), "no Heartbeat or TestRequest while logging out");
    }

    @Test
    void aSecondLogoutCallSendsNothingMore()
    {
        h.session.logout("one");
        h.session.logout("two");

        assertEquals(1, h.sent().size());
    }

    @Test
    void resetOnLogoutStartsTheNextSessionAtOne()
    {
        final SessionHarness resetting = loggedOnAcceptor(30, new SessionSettings().resetOnLogout(true));
        resetting.receive(resetting.peer.heartbeat(2));

        resetting.receive(resetting.peer.message(MsgTypes.LOGOUT, 3));

        assertEquals(1, resetting.session.nextSenderSeqNum());
        assertEquals(1, resetting.session.nextTargetSeqNum());
    }
}
