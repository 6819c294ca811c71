package org.fixlab.engine.session;

/**
 * Negative return values of {@link Session#trySend}. A positive value is the MsgSeqNum the message
 * was sent with. Back-pressure is a return value: the caller decides whether to retry, drop or poll.
 */
public final class SendResult
{
    /** The session is not logged on: nothing was sent and no sequence number was used. */
    public static final long NOT_LOGGED_ON = -1;
    /** The outbound buffer is full (the peer reads slower than we write): retry after polling. */
    public static final long BACK_PRESSURED = -2;
    /** The message does not fit the outbound buffer at all. */
    public static final long TOO_LARGE = -3;

    private SendResult()
    {
    }

    public static String describe(final long result)
    {
        if (result > 0)
        {
            return "sent as MsgSeqNum " + result;
        }
        if (result == NOT_LOGGED_ON)
        {
            return "not logged on";
        }
        if (result == BACK_PRESSURED)
        {
            return "back-pressured";
        }
        return result == TOO_LARGE ? "message larger than the outbound buffer" : "unknown result " + result;
    }
}
