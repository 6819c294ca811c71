package org.fixlab.engine.tools;

import java.util.HashSet;
import java.util.Set;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.dictionary.DataDictionary;
import org.fixlab.engine.dictionary.MessageDef;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.session.Session;

/**
 * The order-echo application of the conformance acceptor (as QuickFIX's acceptance-test
 * application behaves): NewOrderSingle and SecurityDefinition come back with the same body and the
 * other side's header fields, a PossResend order whose ClOrdID was already seen is dropped, and any
 * other application message gets a BusinessMessageReject. An answer that meets a full outbound
 * buffer aborts the order ({@link Action#ABORT}): the session delivers it again later, so no order
 * goes unanswered under back-pressure.
 */
public final class EchoApplication implements Application
{
    private static final int CL_ORD_ID = 11;
    private static final int UNSUPPORTED_MESSAGE_TYPE = 3;

    private final MessageEncoder echo = new MessageEncoder(64 * 1024);
    private final Set<String> clOrdIdsSeen = new HashSet<>();

    @Override
    public void onLogon(final Session session)
    {
        clOrdIdsSeen.clear();
    }

    @Override
    public void onLogout(final Session session)
    {
        clOrdIdsSeen.clear();
    }

    @Override
    public Action onAppMessage(final Session session, final MessageDecoder message)
    {
        final int typeIndex = message.indexOf(Fix.MSG_TYPE);
        final boolean single = message.valueLength(typeIndex) == 1;
        final char type = single ? (char)message.buffer().getByte(message.valueOffset(typeIndex)) : 0;
        if (type == 'D')
        {
            final String clOrdId = message.stringValue(CL_ORD_ID);
            final boolean seen = clOrdId != null && !clOrdIdsSeen.add(clOrdId);
            if (seen && message.isFlagSet(Fix.POSS_RESEND))
            {
                return Action.CONTINUE;
            }
            final Action action = echo(session, message);
            if (action == Action.ABORT && !seen && clOrdId != null)
            {
                clOrdIdsSeen.remove(clOrdId); // the redelivery is this same order, not a repeat of it
            }
            return action;
        }
        if (type == 'd')
        {
            return echo(session, message);
        }
        return actionFor(session.sendBusinessReject(message, UNSUPPORTED_MESSAGE_TYPE, "Unsupported Message Type"));
    }

    /** A full buffer is worth waiting for; any other failure (not logged on, too large) would fail again. */
    private static Action actionFor(final long sendResult)
    {
        return sendResult == SendResult.BACK_PRESSURED ? Action.ABORT : Action.CONTINUE;
    }

    /**
     * A NumInGroup of 0 announces no group at all; QuickFIX/J's message model drops it, and the
     * conformance scripts expect the echo without it.
     */
    private static boolean isEmptyGroupCount(final Session session, final MessageDecoder message, final int index)
    {
        if (message.valueLength(index) != 1 || message.buffer().getByte(message.valueOffset(index)) != '0')
        {
            return false;
        }
        final int typeIndex = message.indexOf(Fix.MSG_TYPE);
        final MessageDef definition = DataDictionary.standard(session.id().version())
            .message(message.buffer(), message.valueOffset(typeIndex), message.valueLength(typeIndex));
        return definition != null && definition.group(message.tag(index)) != null;
    }

    /** Same fields in the same order, minus what the session writes itself and the PossDup markers. */
    private Action echo(final Session session, final MessageDecoder message)
    {
        final int typeIndex = message.indexOf(Fix.MSG_TYPE);
        echo.reset(message.buffer(), message.valueOffset(typeIndex), message.valueLength(typeIndex));
        for (int i = 0, n = message.fieldCount(); i < n; i++)
        {
            switch (message.tag(i))
            {
                case Fix.BEGIN_STRING:
                case Fix.BODY_LENGTH:
                case Fix.MSG_TYPE:
                case Fix.MSG_SEQ_NUM:
                case Fix.SENDER_COMP_ID:
                case Fix.TARGET_COMP_ID:
                case Fix.SENDING_TIME:
                case Fix.POSS_DUP_FLAG:
                case Fix.ORIG_SENDING_TIME:
                case Fix.CHECK_SUM:
                    break;
                default:
                    if (!isEmptyGroupCount(session, message, i))
                    {
                        echo.append(message.tag(i), message.buffer(), message.valueOffset(i), message.valueLength(i));
                    }
                    break;
            }
        }
        return actionFor(session.trySend(echo));
    }
}
