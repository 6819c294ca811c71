package org.fixlab.engine.session;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** CompIDs, SendingTime accuracy and BeginString of inbound messages, before and after Logon. */
class HeaderChecksTest
{
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    /** Asserts a Reject of {@code seqNum} with the reason (and tag), then a Logout with the text. */
    private static void assertRejectThenLogout(final SessionHarness h, final int seqNum, final String reason, final String refTagId,
        final String logoutText)
    {
        final List<FixFrame> sent = h.sent();
        assertEquals(2, sent.size(), sent::toString);
        final FixFrame reject = sent.get(0);
        assertEquals("3", reject.msgType());
        assertEquals(String.valueOf(seqNum), reject.value(Fix.REF_SEQ_NUM));
        assertEquals(reason, reject.value(Fix.SESSION_REJECT_REASON));
        assertEquals(refTagId, reject.value(Fix.REF_TAG_ID));
        assertEquals("5", sent.get(1).msgType());
        assertEquals(logoutText, sent.get(1).value(Fix.TEXT));
        assertEquals(SessionState.LOGOUT_SENT, h.session.state(), "waits for the peer's Logout");
        assertEquals(seqNum + 1, h.session.nextTargetSeqNum(), "the rejected message used its MsgSeqNum");
    }

    @Test
    void aWrongSenderCompIdIsRejectedAndLoggedOut()
    {
        final SessionHarness h = loggedOnAcceptor(30);

        h.receive(h.peer.order(2).sender("INTRUDER"));

        assertRejectThenLogout(h, 2, "9", null, "CompID problem");
        assertEquals(List.of(), h.application.appSeqNums());
    }

    @Test
    void aWrongTargetCompIdIsRejectedAndLoggedOut()
    {
        final SessionHarness h = loggedOnAcceptor(30);

        h.receive(h.peer.heartbeat(2).target("SOMEONE-ELSE"));

        assertRejectThenLogout(h, 2, "9", null, "CompID problem");
    }

    @ParameterizedTest(name = "{0} s")
    @ValueSource(ints = {121, -121, 3600})
    void aSendingTimeBeyondMaxLatencyIsRejectedAndLoggedOut(final int offsetSeconds)
    {
        final SessionHarness h = loggedOnAcceptor(30);

        h.receive(h.peer.order(2).sendingTime(h.clock.nanoTime() + offsetSeconds * SECOND));

        assertRejectThenLogout(h, 2, "10", "52", "SendingTime accuracy problem, field=52");
        assertEquals(List.of(), h.application.appSeqNums());
    }

    @ParameterizedTest(name = "{0} s")
    @ValueSource(ints = {120, -120, -11})
    void aSendingTimeWithinMaxLatencyIsAccepted(final int offsetSeconds)
    {
        final SessionHarness h = loggedOnAcceptor(30);

        h.receive(h.peer.order(2).sendingTime(h.clock.nanoTime() + offsetSeconds * SECOND));

        assertEquals(List.of(), h.sent());
        assertEquals(List.of(2), h.application.appSeqNums());
    }

    @Test
    void aLogonWithABadSendingTimeGetsOnlyALogout()
    {
        final SessionHarness h = SessionHarness.acceptor();
        h.connect();

        h.receive(h.peer.logon(1, 30).sendingTime(h.clock.nanoTime() - 200 * SECOND));

        final FixFrame logout = h.sentOne();
        assertEquals("5", logout.msgType());
        assertEquals("Invalid Logon message: SendingTime accuracy problem, field=52", logout.value(Fix.TEXT));
        h.assertDisconnected();
        assertEquals(0, h.application.logons);
    }

    @Test
    void aLogonWithUnknownCompIdsIsDroppedWithoutAnswer()
    {
        final SessionHarness h = SessionHarness.acceptor();
        h.connect();

        h.receive(h.peer.logon(1, 30).sender("STRANGER"));

        assertEquals(List.of(), h.sent());
        h.assertDisconnected();
    }

    @Test
    void anotherBeginStringAfterLogonEndsTheSession()
    {
        final SessionHarness h = loggedOnAcceptor(30);
        final Counterparty fix42 = new Counterparty(FixVersion.FIX42, SessionHarness.THEM, SessionHarness.US, h.clock);

        h.receive(fix42.heartbeat(2));

        final FixFrame logout = h.sentOne();
        assertEquals("Incorrect BeginString", logout.value(Fix.TEXT));
        h.assertDisconnected();
    }

    @Test
    void aMessageWithoutMsgSeqNumEndsTheSession()
    {
        final SessionHarness h = loggedOnAcceptor(30);

        h.receive(h.peer.heartbeat(2).withoutSeqNum());

        assertEquals("Received message without MsgSeqNum", h.sentOne().value(Fix.TEXT));
        h.assertDisconnected();
    }

    /** One rule for MsgSeqNum: a value that is not a number ends the session as a missing one does, with its reason. */
    @Test
    void aMsgSeqNumThatIsNotANumberEndsTheSessionToo()
    {
        for (final String text : new String[] {"abc", "", "12x", "99999999999"})
        {
            final SessionHarness h = loggedOnAcceptor(30);

            h.receive(h.peer.heartbeat(2).seqNumText(text));

            assertEquals("MsgSeqNum(34) is not a number", h.sentOne().value(Fix.TEXT), "34=" + text);
            h.assertDisconnected();
        }
    }

    @Test
    void withTheChecksOffCompIdsAndSendingTimeAreNotLookedAt()
    {
        final SessionHarness h = loggedOnAcceptor(30, new SessionSettings().checkCompId(false).checkLatency(false));

        h.receive(h.peer.order(2).sender("ANYONE").sendingTime(h.clock.nanoTime() - 3600 * SECOND));

        assertEquals(List.of(), h.sent());
        assertEquals(List.of(2), h.application.appSeqNums());
    }
}
