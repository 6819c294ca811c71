package org.fixlab.engine.session;

import java.util.List;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MsgTypes;
import org.junit.jupiter.api.Test;

import static org.fixlab.engine.session.SessionHarness.loggedOnAcceptor;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** SequenceReset in reset mode (no GapFillFlag): NewSeqNo moves the expected number forward only. */
class SequenceResetTest
{
    private final SessionHarness h = loggedOnAcceptor(30);

    private Counterparty.Message reset(final int seqNum, final int newSeqNo)
    {
        return h.peer.message(MsgTypes.SEQUENCE_RESET, seqNum).field(Fix.NEW_SEQ_NO, newSeqNo);
    }

    @Test
    void aHigherNewSeqNoIsAccepted()
    {
        h.receive(reset(2, 10));

        assertEquals(List.of(), h.sent());
        assertEquals(10, h.session.nextTargetSeqNum());
        h.receive(h.peer.order(10));
        assertEquals(List.of(10), h.application.appSeqNums());
    }

    @Test
    void theMsgSeqNumOfAResetIsNotCheckedForGaps()
    {
        h.receive(reset(50, 10));

        assertEquals(List.of(), h.sent(), "no ResendRequest for 2..49");
        assertEquals(10, h.session.nextTargetSeqNum());
    }

    @Test
    void aLowerNewSeqNoIsRejectedAndChangesNothing()
    {
        h.receiveHeartbeats(2, 4);

        h.receive(reset(5, 3));

        final FixFrame reject = h.sentOne();
        assertEquals("3", reject.msgType());
        assertEquals("5", reject.value(Fix.SESSION_REJECT_REASON), "value is incorrect");
        assertEquals("36", reject.value(Fix.REF_TAG_ID));
        assertEquals("5", reject.value(Fix.REF_SEQ_NUM));
        assertEquals("4", reject.value(Fix.REF_MSG_TYPE));
        assertEquals(5, h.session.nextTargetSeqNum());
        assertEquals(SessionState.ACTIVE, h.session.state());
    }

    @Test
    void aResetWithoutNewSeqNoIsRejected()
    {
        h.receive(h.peer.message(MsgTypes.SEQUENCE_RESET, 2));

        final FixFrame reject = h.sentOne();
        assertEquals("1", reject.value(Fix.SESSION_REJECT_REASON), "required tag missing");
        assertEquals("36", reject.value(Fix.REF_TAG_ID));
        assertEquals(2, h.session.nextTargetSeqNum());
    }
}
