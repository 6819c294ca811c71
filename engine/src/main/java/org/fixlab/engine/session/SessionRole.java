package org.fixlab.engine.session;

/** Which side opens the connection and sends the first Logon. */
public enum SessionRole
{
    ACCEPTOR,
    INITIATOR
}
