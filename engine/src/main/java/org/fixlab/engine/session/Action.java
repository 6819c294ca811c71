package org.fixlab.engine.session;

/**
 * What the application says about an inbound application message it was given, as Artio's
 * {@code Action}: {@link #CONTINUE} takes it (its MsgSeqNum is consumed), {@link #ABORT} refuses it
 * for now. An aborted message is delivered again on a later duty cycle with the same MsgSeqNum, and
 * nothing behind it on that connection is processed before it: the usual reason is a
 * {@link Session#trySend} that met a full outbound buffer while answering it.
 */
public enum Action
{
    /** The message is handled; the session moves on to the next MsgSeqNum. */
    CONTINUE,
    /** Deliver this message again later; its MsgSeqNum is not consumed. */
    ABORT
}
