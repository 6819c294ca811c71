package org.fixlab.engine.session;

import java.util.List;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Inbound MsgSeqNum checks: a number above the expected one asks once for the gap and holds what
 * came early until the gap is filled; one below it ends the session unless it is a possible duplicate.
 */
class SequenceGapTest
{
    private final SessionHarness h = loggedOnAcceptor(30);

    /** Orders 5 and 6 arrive while 2..4 are missing: one ResendRequest for everything from 2. */
    private void receiveOrdersFiveAndSixEarly()
    {
        h.receive(h.peer.order(5));
        h.receive(h.peer.order(6));

        final FixFrame resendRequest = h.sentOne();
        assertEquals("2", resendRequest.msgType());
        assertEquals("7=2|16=0|", resendRequest.body());
        assertEquals(List.of(), h.application.appSeqNums(), "nothing is delivered out of order");
        assertEquals(2, h.session.nextTargetSeqNum());
    }

    @Test
    void earlyMessagesAreDeliveredInOrderOnceTheResentOnesArrive()
    {
        receiveOrdersFiveAndSixEarly();
        final long original = h.clock.nanoTime() - 1_000_000_000L;

        h.receive(h.peer.order(2).possDup(original));
        h.receive(h.peer.order(3).possDup(original));
        assertEquals(List.of(2, 3), h.application.appSeqNums());
        h.receive(h.peer.order(4).possDup(original));

        assertEquals(List.of(2, 3, 4, 5, 6), h.application.appSeqNums());
        assertEquals(7, h.session.nextTargetSeqNum());
        assertEquals(List.of(), h.sent(), "no second ResendRequest");
    }

    @Test
    void earlyMessagesAreDeliveredOnceAGapFillCoversTheGap()
    {
        receiveOrdersFiveAndSixEarly();

        h.receive(h.peer.gapFill(2, 5));

        assertEquals(List.of(5, 6), h.application.appSeqNums());
        assertEquals(7, h.session.nextTargetSeqNum());
        assertEquals(List.of(), h.sent());
    }

    @Test
    void aGapFilledPartlyByGapFillAndPartlyByResendsIsDeliveredInOrder()
    {
        receiveOrdersFiveAndSixEarly();

        h.receive(h.peer.gapFill(2, 4));
        h.receive(h.peer.order(4).possDup(h.clock.nanoTime()));

        assertEquals(List.of(4, 5, 6), h.application.appSeqNums());
        assertEquals(7, h.session.nextTargetSeqNum());
    }

    @Test
    void messagesAfterTheGapDoNotAskAgain()
    {
        receiveOrdersFiveAndSixEarly();

        h.receive(h.peer.order(7));
        h.receive(h.peer.heartbeat(8));

        assertEquals(List.of(), h.sent(), "the ResendRequest outstanding runs to infinity (16=0)");
        h.receive(h.peer.gapFill(2, 5));
        assertEquals(List.of(5, 6, 7), h.application.appSeqNums());
        assertEquals(9, h.session.nextTargetSeqNum());
    }

    @Test
    void tooLowWithoutPossDupLogsOutAndDisconnects()
    {
        h.receiveHeartbeats(2, 3);

        h.receive(h.peer.order(2));

        final FixFrame logout = h.sentOne();
        assertEquals("5", logout.msgType());
        assertEquals("MsgSeqNum too low, expecting 4 but received 2", logout.value(Fix.TEXT));
        h.assertDisconnected();
        assertEquals(List.of(), h.application.appSeqNums());
    }

    @Test
    void tooLowPossibleDuplicateIsIgnoredSilently()
    {
        h.receive(h.peer.order(2));
        h.receive(h.peer.order(3));

        h.receive(h.peer.order(2).possDup(h.clock.nanoTime()));

        assertEquals(List.of(), h.sent());
        assertEquals(List.of(2, 3), h.application.appSeqNums(), "delivered once only");
        assertEquals(4, h.session.nextTargetSeqNum());
        assertEquals(SessionState.ACTIVE, h.session.state());
    }

    @Test
    void possDupWithoutOrigSendingTimeIsRejected()
    {
        h.receive(h.peer.order(2).possDupWithoutOrigSendingTime());

        final FixFrame reject = h.sentOne();
        assertEquals("3", reject.msgType());
        assertEquals("2", reject.value(Fix.REF_SEQ_NUM));
        assertEquals("1", reject.value(Fix.SESSION_REJECT_REASON));
        assertEquals("122", reject.value(Fix.REF_TAG_ID));
        assertEquals(3, h.session.nextTargetSeqNum(), "a rejected message still uses its MsgSeqNum");
        assertEquals(List.of(), h.application.appSeqNums());
    }
}
