package org.fixlab.engine.session;

/** Where a session is in its life cycle. One thread owns a session, so this is a plain field. */
public enum SessionState
{
    /** No connection bound. An initiator will reconnect; an acceptor waits. */
    DISCONNECTED,
    /** Connected; an initiator has sent its Logon, an acceptor waits for one. */
    AWAITING_LOGON,
    /** Logon exchanged: application messages flow. */
    ACTIVE,
    /** We sent Logout and wait for the peer's Logout (or the timeout). */
    LOGOUT_SENT
}
