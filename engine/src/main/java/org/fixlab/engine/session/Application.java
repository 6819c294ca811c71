package org.fixlab.engine.session;

import org.fixlab.engine.codec.MessageDecoder;

/**
 * Callbacks from the engine to the embedding application, always on the thread that owns the
 * session. Messages are read-only flyweight views, valid only during the call.
 */
public interface Application
{
    /** The session exists (configured), before any connection. */
    default void onCreate(final Session session)
    {
    }

    /** Logon exchange completed. */
    default void onLogon(final Session session)
    {
    }

    /** The session ended: Logout exchanged or the connection lost. */
    default void onLogout(final Session session)
    {
    }

    /** A session-level message that passed validation (after the session handled it). */
    default void onAdminMessage(final Session session, final MessageDecoder message)
    {
    }

    /**
     * An application message, in sequence, validated. Returning {@link Action#CONTINUE} consumes its
     * MsgSeqNum, so the callback runs once per MsgSeqNum that it accepts; {@link Action#ABORT} (for
     * example when an answer's {@link Session#trySend} returned {@link SendResult#BACK_PRESSURED})
     * leaves the MsgSeqNum unconsumed and the same message comes again on a later duty cycle. Undo
     * whatever the refused call recorded, since the redelivery is not a new message.
     */
    Action onAppMessage(Session session, MessageDecoder message);
}
