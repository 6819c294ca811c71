package org.fixlab.engine.session;

import org.agrona.DirectBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.store.MessageStore;

/**
 * Answers a ResendRequest from the store, a chunk of MsgSeqNums per duty cycle so that a resend of a
 * million messages never needs more than the outbound buffer: application messages go again with
 * PossDupFlag=Y and OrigSendingTime, admin messages and anything the store no longer has are covered
 * by SequenceReset-GapFill.
 */
final class ResendResponder implements MessageStore.SentMessageHandler
{
    private final SessionSender sender;
    private final MessageDecoder stored;
    private final MessageEncoder copy = new MessageEncoder(64 * 1024);
    private final int chunk;

    private int first;       // first MsgSeqNum of the running resend
    private int next;        // next MsgSeqNum to account for, 0 when no resend runs
    private int end;         // last MsgSeqNum of the request, inclusive
    private int gapStart;    // first MsgSeqNum of a pending gap, 0 if none
    private boolean blocked; // the outbound buffer filled up mid-chunk

    ResendResponder(final SessionSender sender, final MessageDecoder stored, final int chunk)
    {
        this.sender = sender;
        this.stored = stored;
        this.chunk = Math.max(1, chunk);
    }

    /**
     * Takes a ResendRequest for {@code begin..end}. While a resend is running, a request that does not
     * reach back before it coalesces with it: a duplicate changes nothing, an overlapping or later one
     * extends its end, so a burst of identical requests costs one resend rather than one restart each.
     * A request reaching further back than the running resend restarts there, still running to the
     * end the running one had. Returns true when a new resend started, false when the request joined
     * the running one (or asked for nothing).
     */
    boolean start(final int begin, final int end)
    {
        if (begin > end)
        {
            // asked only for numbers we have not used yet: nothing to replay
            return false;
        }
        if (next != 0 && begin >= first)
        {
            this.end = Math.max(this.end, end);
            return false;
        }
        // restarting further back must not drop what the running resend still owed
        this.end = next != 0 ? Math.max(this.end, end) : end;
        this.first = begin;
        this.next = begin;
        this.gapStart = 0;
        return true;
    }

    /** Last MsgSeqNum of the running resend, inclusive. */
    int end()
    {
        return end;
    }

    void cancel()
    {
        next = 0;
    }

    boolean inProgress()
    {
        return next != 0;
    }

    /** Replays the next chunk; returns the number of MsgSeqNums accounted for. */
    int continueResend()
    {
        if (next == 0)
        {
            return 0;
        }
        final int from = next;
        final int to = (int)Math.min((long)end, (long)from + chunk - 1);
        blocked = false;
        sender.store().replay(from, to, this);
        if (blocked)
        {
            return next - from;
        }
        // stored messages are done up to 'to': whatever is left is a hole
        if (gapStart == 0 && next <= to)
        {
            gapStart = next;
        }
        next = to + 1;
        if (next > end)
        {
            if (gapStart != 0 && !flushGap(end + 1))
            {
                return to - from;
            }
            next = 0;
        }
        return to - from + 1;
    }

    @Override
    public void onMessage(final int seqNum, final DirectBuffer buffer, final int offset, final int length)
    {
        if (blocked || seqNum < next)
        {
            return;
        }
        if (gapStart == 0 && seqNum > next)
        {
            gapStart = next;
        }
        if (stored.decode(buffer, offset, length) != MessageDecoder.OK || isAdmin(stored))
        {
            if (gapStart == 0)
            {
                gapStart = seqNum;
            }
            next = seqNum + 1;
            return;
        }
        if (gapStart != 0 && !flushGap(seqNum))
        {
            return;
        }
        // The gap before it is sent: a retry after back-pressure must start here, not send that GapFill again.
        next = seqNum;
        if (!resendApplicationMessage(seqNum))
        {
            blocked = true;
            return;
        }
        next = seqNum + 1;
    }

    private boolean flushGap(final int newSeqNo)
    {
        if (!sender.sendGapFill(gapStart, newSeqNo))
        {
            blocked = true;
            next = gapStart;
            gapStart = 0;
            return false;
        }
        gapStart = 0;
        return true;
    }

    private static boolean isAdmin(final MessageDecoder message)
    {
        final char type = message.msgTypeChar();
        return type != 0 && MsgTypes.isAdmin(type);
    }

    /** Copies every field but the ones the session writes afresh, keeping their order. */
    private boolean resendApplicationMessage(final int seqNum)
    {
        final int typeIndex = stored.indexOf(Fix.MSG_TYPE);
        copy.reset(stored.buffer(), stored.valueOffset(typeIndex), stored.valueLength(typeIndex));
        int origIndex = -1;
        for (int i = 0, n = stored.fieldCount(); i < n; i++)
        {
            final int tag = stored.tag(i);
            if (tag == Fix.SENDING_TIME)
            {
                origIndex = i;
            }
            if (isRewritten(tag))
            {
                continue;
            }
            final int fieldStart = i == 0 ? stored.offset() : stored.valueOffset(i - 1) + stored.valueLength(i - 1) + 1;
            final int fieldEnd = stored.valueOffset(i) + stored.valueLength(i) + 1;
            copy.appendRaw(stored.buffer(), fieldStart, fieldEnd - fieldStart);
        }
        return sender.resend(seqNum, copy, stored.buffer(), origIndex < 0 ? 0 : stored.valueOffset(origIndex),
            origIndex < 0 ? 0 : stored.valueLength(origIndex));
    }

    private static boolean isRewritten(final int tag)
    {
        switch (tag)
        {
            case Fix.BEGIN_STRING:
            case Fix.BODY_LENGTH:
            case Fix.MSG_TYPE:
            case Fix.SENDER_COMP_ID:
            case Fix.TARGET_COMP_ID:
            case Fix.MSG_SEQ_NUM:
            case Fix.SENDING_TIME:
            case Fix.POSS_DUP_FLAG:
            case Fix.ORIG_SENDING_TIME:
            case Fix.CHECK_SUM:
                return true;
            default:
                return false;
        }
    }
}
