package org.fixlab.engine.transport;

import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;

/**
 * Routes a new inbound connection to one of the acceptor's sessions by the BeginString and CompIDs
 * of its first message, so several sessions share one port. A first message for no configured
 * session, or for a session that already has a connection, closes the new connection without a
 * reply: the existing session is never disturbed.
 */
final class AcceptorRouter implements TcpConnection.FrameHandler
{
    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<Session, SessionBinding> bindings = new HashMap<>();
    private final MessageDecoder decoder;
    private final SessionLog log;

    AcceptorRouter(final int maxFields, final SessionLog log)
    {
        this.decoder = new MessageDecoder(maxFields);
        this.log = log;
    }

    void add(final Session session)
    {
        final SessionId id = session.id();
        // seen from the peer: its SenderCompID is our TargetCompID
        final String key = routeKey(id.version().beginString(), id.targetCompId(), id.senderCompId());
        if (sessions.putIfAbsent(key, session) != null)
        {
            throw new IllegalArgumentException("session " + id + " is already configured on this acceptor");
        }
        bindings.put(session, new SessionBinding(session));
    }

    private static String routeKey(final String beginString, final String peerSender, final String peerTarget)
    {
        return beginString + '\u0001' + peerSender + '\u0001' + peerTarget;
    }

    @Override
    public boolean onFrame(final TcpConnection connection, final UnsafeBuffer buffer, final int offset, final int length,
        final long nowNanos)
    {
        if (decoder.decode(buffer, offset, length) != MessageDecoder.OK)
        {
            connection.close("first message does not parse");
            return true;
        }
        final String key = routeKey(decoder.stringValue(Fix.BEGIN_STRING), decoder.stringValue(Fix.SENDER_COMP_ID),
            decoder.stringValue(Fix.TARGET_COMP_ID));
        final Session session = sessions.get(key);
        if (session == null)
        {
            log.warn(null, "closing connection from " + connection.remoteAddress() + ": no session for " +
                key.replace('\u0001', '/'));
            connection.close("unknown session");
            return true;
        }
        if (session.isConnected())
        {
            log.warn(session.id(), "refusing a second connection from " + connection.remoteAddress() +
                ": the session is already connected");
            connection.close("session already connected");
            return true;
        }
        connection.handler(bindings.get(session));
        session.onConnect(connection, nowNanos);
        // refused: the connection now delivers it again to the session through its binding
        return session.onMessage(buffer, offset, length, nowNanos);
    }

    @Override
    public void onGarbled(final TcpConnection connection, final String why)
    {
        connection.close("garbled first message: " + why);
    }

    @Override
    public void onClosed(final TcpConnection connection, final String reason)
    {
        // nothing bound yet, no session to tell; the engine drops closed connections from its poll list
        log.warn(null, "connection from " + connection.remoteAddress() + " closed before Logon: " + reason);
    }

    /** True while the connection has not been routed to a session. */
    boolean isPending(final TcpConnection connection)
    {
        return connection.handler() == this;
    }
}
