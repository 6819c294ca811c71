package org.fixlab.engine.session;

import org.fixlab.engine.codec.MessageDecoder;

/**
 * The optional password hook: decides whether an inbound Logon is accepted. Username(553) and
 * Password(554) are in the message. A refused Logon is answered with Logout and a disconnect.
 */
@FunctionalInterface
public interface LogonAuthenticator
{
    LogonAuthenticator ACCEPT_ALL = (session, logon) -> true;

    boolean authenticate(SessionId session, MessageDecoder logon);
}
