package org.fixlab.engine.session;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.dictionary.SessionRejectReason;

/** Fills an encoder with the body of each session-level message. Header framing is the session's. */
final class AdminMessages
{
    private static final int[][] REVERSE_ROUTE = {
        {Fix.ON_BEHALF_OF_COMP_ID, Fix.DELIVER_TO_COMP_ID},
        {Fix.ON_BEHALF_OF_SUB_ID, Fix.DELIVER_TO_SUB_ID},
        {Fix.ON_BEHALF_OF_LOCATION_ID, Fix.DELIVER_TO_LOCATION_ID},
        {Fix.DELIVER_TO_COMP_ID, Fix.ON_BEHALF_OF_COMP_ID},
        {Fix.DELIVER_TO_SUB_ID, Fix.ON_BEHALF_OF_SUB_ID},
        {Fix.DELIVER_TO_LOCATION_ID, Fix.ON_BEHALF_OF_LOCATION_ID},
    };

    private AdminMessages()
    {
    }

    static MessageEncoder logon(final MessageEncoder encoder, final int heartbeatSeconds, final boolean resetSeqNum,
        final String username, final String password)
    {
        encoder.reset(MsgTypes.LOGON).append(Fix.ENCRYPT_METHOD, 0).append(Fix.HEART_BT_INT, heartbeatSeconds);
        if (resetSeqNum)
        {
            encoder.append(Fix.RESET_SEQ_NUM_FLAG, 'Y');
        }
        if (username != null)
        {
            encoder.append(Fix.USERNAME, username);
        }
        if (password != null)
        {
            encoder.append(Fix.PASSWORD, password);
        }
        return encoder;
    }

    /** A Heartbeat; echoes TestReqID(112) when answering a TestRequest (index of the field, or -1). */
    static MessageEncoder heartbeat(final MessageEncoder encoder, final MessageDecoder testRequest, final int testReqIdIndex)
    {
        encoder.reset(MsgTypes.HEARTBEAT);
        if (testReqIdIndex >= 0)
        {
            encoder.append(Fix.TEST_REQ_ID, testRequest.buffer(), testRequest.valueOffset(testReqIdIndex),
                testRequest.valueLength(testReqIdIndex));
        }
        return encoder;
    }

    static MessageEncoder testRequest(final MessageEncoder encoder, final CharSequence testReqId)
    {
        return encoder.reset(MsgTypes.TEST_REQUEST).append(Fix.TEST_REQ_ID, testReqId);
    }

    static MessageEncoder resendRequest(final MessageEncoder encoder, final int beginSeqNo, final int endSeqNo)
    {
        return encoder.reset(MsgTypes.RESEND_REQUEST).append(Fix.BEGIN_SEQ_NO, beginSeqNo).append(Fix.END_SEQ_NO, endSeqNo);
    }

    static MessageEncoder gapFill(final MessageEncoder encoder, final int newSeqNo)
    {
        return encoder.reset(MsgTypes.SEQUENCE_RESET).append(Fix.GAP_FILL_FLAG, 'Y').append(Fix.NEW_SEQ_NO, newSeqNo);
    }

    static MessageEncoder logout(final MessageEncoder encoder, final String text)
    {
        encoder.reset(MsgTypes.LOGOUT);
        if (text != null)
        {
            encoder.append(Fix.TEXT, text);
        }
        return encoder;
    }

    /**
     * A session Reject of the decoded message. SessionRejectReason values the version does not define
     * (above 11 in FIX.4.2) are left out; the text still says what is wrong.
     */
    static MessageEncoder reject(final MessageEncoder encoder, final MessageDecoder rejected, final int refSeqNum,
        final FixVersion version, final Rejection rejection)
    {
        encoder.reset(MsgTypes.REJECT);
        reverseRoute(encoder, rejected);
        encoder.append(Fix.REF_SEQ_NUM, refSeqNum);
        encoder.append(Fix.TEXT, rejection.text());
        final int reason = rejection.reason();
        if (rejection.hasRefTagId())
        {
            encoder.append(Fix.REF_TAG_ID, rejection.refTagId());
        }
        final int msgTypeIndex = rejected.indexOf(Fix.MSG_TYPE);
        if (msgTypeIndex >= 0 && rejected.valueLength(msgTypeIndex) > 0)
        {
            encoder.append(Fix.REF_MSG_TYPE, rejected.buffer(), rejected.valueOffset(msgTypeIndex), rejected.valueLength(msgTypeIndex));
        }
        if (SessionRejectReason.isDefinedIn(version, reason))
        {
            encoder.append(Fix.SESSION_REJECT_REASON, reason);
        }
        return encoder;
    }

    /** BusinessMessageReject(j) for an application message this side does not handle. */
    static MessageEncoder businessReject(final MessageEncoder encoder, final MessageDecoder rejected, final int reason,
        final String text)
    {
        encoder.reset('j');
        reverseRoute(encoder, rejected);
        encoder.append(Fix.REF_SEQ_NUM, rejected.intValue(Fix.MSG_SEQ_NUM, 0));
        final int msgTypeIndex = rejected.indexOf(Fix.MSG_TYPE);
        if (msgTypeIndex >= 0)
        {
            encoder.append(Fix.REF_MSG_TYPE, rejected.buffer(), rejected.valueOffset(msgTypeIndex), rejected.valueLength(msgTypeIndex));
        }
        encoder.append(Fix.BUSINESS_REJECT_REASON, reason);
        if (text != null)
        {
            encoder.append(Fix.TEXT, text);
        }
        return encoder;
    }

    /** OnBehalfOf* of the message we answer becomes DeliverTo* on the answer, and the other way round. */
    private static void reverseRoute(final MessageEncoder encoder, final MessageDecoder message)
    {
        for (final int[] pair : REVERSE_ROUTE)
        {
            final int index = message.indexOf(pair[0]);
            if (index >= 0 && message.valueLength(index) > 0)
            {
                encoder.appendHeader(pair[1], message.buffer(), message.valueOffset(index), message.valueLength(index));
            }
        }
    }
}
