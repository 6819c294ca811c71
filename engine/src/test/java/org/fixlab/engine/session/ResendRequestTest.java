package org.fixlab.engine.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Answering a ResendRequest from the store: application messages go again under their MsgSeqNum
 * with PossDupFlag and OrigSendingTime, session-level messages become SequenceReset-GapFill.
 *
 * <p>History sent before each test: 1 Logon, 2 order, 3 Heartbeat, 4 order, 5 Heartbeat.
 */
class ResendRequestTest
{
    private static final List<String> WHOLE_HISTORY = List.of("1:4->2", "2:D", "3:4->4", "4:D", "5:4->6");

    /** The orders as first sent, by MsgSeqNum. */
    private final Map<Integer, FixFrame> originals = new HashMap<>();

    private SessionHarness sendHistory(final SessionSettings settings)
    {
        final SessionHarness h = SessionHarness.loggedOnAcceptor(30, settings);
        sendOrder(h, "A");
        h.receive(h.peer.message(MsgTypes.TEST_REQUEST, 2).field(Fix.TEST_REQ_ID, "T1"));
        sendOrder(h, "B");
        h.receive(h.peer.message(MsgTypes.TEST_REQUEST, 3).field(Fix.TEST_REQ_ID, "T2"));
        final List<FixFrame> sent = h.sent();
        assertEquals(List.of(2, 3, 4, 5), sent.stream().map(FixFrame::seqNum).toList());
        sent.stream().filter(m -> m.msgType().equals("D")).forEach(m -> originals.put(m.seqNum(), m));
        h.advanceSeconds(5); // so that a resent SendingTime differs from the original one
        h.sent();
        return h;
    }

    private static void sendOrder(final SessionHarness h, final String clOrdId)
    {
        h.advanceSeconds(1);
        final MessageEncoder order = new MessageEncoder().reset('D').append(11, clOrdId).append(55, "IBM").appendDecimal(44, 12345, 2);
        assertTrue(h.session.trySend(order) > 0);
    }

    private static Counterparty.Message resendRequest(final SessionHarness h, final int begin, final int end)
    {
        return h.peer.message(MsgTypes.RESEND_REQUEST, 4).field(Fix.BEGIN_SEQ_NO, begin).field(Fix.END_SEQ_NO, end);
    }

    /**
     * "seqNum:type", with "->NewSeqNo" for a GapFill; checks on the way what every resent message
     * must carry, and that an order is its original again.
     */
    private List<String> describe(final List<FixFrame> resent, final SessionHarness h)
    {
        final List<String> lines = new ArrayList<>();
        for (final FixFrame message : resent)
        {
            assertEquals("Y", message.value(Fix.POSS_DUP_FLAG), message::toString);
            assertTrue(message.has(Fix.ORIG_SENDING_TIME), message::toString);
            assertEquals(Counterparty.timestamp(h.clock.nanoTime()), message.value(Fix.SENDING_TIME), "SendingTime is now");
            if (message.msgType().equals("4"))
            {
                assertEquals("Y", message.value(Fix.GAP_FILL_FLAG), message::toString);
                lines.add(message.seqNum() + ":4->" + message.value(Fix.NEW_SEQ_NO));
            }
            else
            {
                final FixFrame original = originals.get(message.seqNum());
                assertEquals(original.value(Fix.SENDING_TIME), message.value(Fix.ORIG_SENDING_TIME), "OrigSendingTime is the first SendingTime");
                assertNotEquals(original.value(Fix.SENDING_TIME), message.value(Fix.SENDING_TIME));
                assertEquals(original.body(), message.body(), "the same body, field for field");
                lines.add(message.seqNum() + ":" + message.msgType());
            }
        }
        return lines;
    }

    @Test
    void replaysOrdersAndCoversSessionMessagesWithGapFills()
    {
        final SessionHarness h = sendHistory(new SessionSettings());

        h.receive(resendRequest(h, 1, 0));

        assertEquals(WHOLE_HISTORY, describe(h.sent(), h));
        assertEquals(6, h.session.nextSenderSeqNum(), "resending uses no new sequence numbers");
        assertEquals(5, h.session.nextTargetSeqNum(), "the ResendRequest's own MsgSeqNum is consumed");
        assertEquals(2, h.store.replay(1, 5, (seqNum, buffer, offset, length) -> { }), "only the orders are stored");
    }

    @Test
    void replaysOnlyTheRangeAsked()
    {
        final SessionHarness h = sendHistory(new SessionSettings());

        h.receive(resendRequest(h, 2, 3));

        assertEquals(List.of("2:D", "3:4->4"), describe(h.sent(), h));
    }

    @Test
    void endSeqNoOfTheFix40StyleInfinityMeansTheLastMessageSent()
    {
        final SessionHarness h = sendHistory(new SessionSettings());

        h.receive(resendRequest(h, 3, 999_999));

        assertEquals(List.of("3:4->4", "4:D", "5:4->6"), describe(h.sent(), h));
    }

    @ParameterizedTest(name = "{0} per duty cycle")
    @ValueSource(ints = {1, 2, 3})
    void aResendInChunksSendsTheSameMessagesOverSeveralDutyCycles(final int chunk)
    {
        final SessionHarness h = sendHistory(new SessionSettings().resendChunkMessages(chunk));

        h.receive(resendRequest(h, 1, 0));
        final List<FixFrame> resent = new ArrayList<>(h.sent());
        assertTrue(resent.size() < WHOLE_HISTORY.size(), "the first chunk only");
        for (int cycle = 0; cycle < 10; cycle++)
        {
            h.session.doWork(h.clock.nanoTime());
            resent.addAll(h.sent());
        }

        assertEquals(WHOLE_HISTORY, describe(resent, h));
    }

    /** Room for one message per duty cycle: the resend must advance by one message each time. */
    @Test
    void aResendInterruptedByBackPressureContinuesWhereItStopped()
    {
        final SessionHarness h = sendHistory(new SessionSettings());
        h.transport.backPressuredAfter(1);
        h.receive(resendRequest(h, 1, 0));
        final List<FixFrame> resent = new ArrayList<>(h.sent());
        assertEquals(1, resent.size(), "room for one message: the resend stops after it");

        for (int cycle = 0; cycle < 2 * WHOLE_HISTORY.size(); cycle++)
        {
            h.transport.backPressuredAfter(1);
            h.session.doWork(h.clock.nanoTime());
            resent.addAll(h.sent());
        }

        assertEquals(WHOLE_HISTORY, describe(resent, h));
    }
}
