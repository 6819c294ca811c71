package org.fixlab.engine.session;

import java.util.ArrayList;
import java.util.List;

import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.MessageDecoder;

/** Copies what the session delivers, since the decoder it passes is only valid during the call. */
final class RecordingApplication implements Application
{
    final List<FixFrame> appMessages = new ArrayList<>();
    final List<FixFrame> adminMessages = new ArrayList<>();
    int logons;
    int logouts;
    /** The next this many application messages are refused with {@link Action#ABORT}. */
    int abortNext;
    private int abortSeqNum;
    private int abortSeqNumTimes;
    /** MsgSeqNum of every application message refused, in order. */
    final List<Integer> abortedSeqNums = new ArrayList<>();

    @Override
    public void onLogon(final Session session)
    {
        logons++;
    }

    @Override
    public void onLogout(final Session session)
    {
        logouts++;
    }

    @Override
    public void onAdminMessage(final Session session, final MessageDecoder message)
    {
        adminMessages.add(copy(message));
    }

    @Override
    public Action onAppMessage(final Session session, final MessageDecoder message)
    {
        final int seqNum = copy(message).seqNum();
        if (abortNext > 0 || (seqNum == abortSeqNum && abortSeqNumTimes > 0))
        {
            if (abortNext > 0)
            {
                abortNext--;
            }
            else
            {
                abortSeqNumTimes--;
            }
            abortedSeqNums.add(seqNum);
            return Action.ABORT;
        }
        appMessages.add(copy(message));
        return Action.CONTINUE;
    }

    /** Refuses the message with this MsgSeqNum the next {@code times} times it comes, taking all others. */
    void abortOnly(final int seqNum, final int times)
    {
        abortSeqNum = seqNum;
        abortSeqNumTimes = times;
    }

    /** MsgSeqNum of every application message delivered so far, in delivery order. */
    List<Integer> appSeqNums()
    {
        final List<Integer> seqNums = new ArrayList<>();
        appMessages.forEach(message -> seqNums.add(message.seqNum()));
        return seqNums;
    }

    private static FixFrame copy(final MessageDecoder message)
    {
        return FixFrame.parse(message.buffer().getStringWithoutLengthAscii(message.offset(), message.length()));
    }
}
