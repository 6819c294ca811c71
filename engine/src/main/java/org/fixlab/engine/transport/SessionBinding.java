package org.fixlab.engine.transport;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.session.Session;

/** Delivers a logged-on (or logging-on) connection's frames to its session. */
final class SessionBinding implements TcpConnection.FrameHandler
{
    private final Session session;

    SessionBinding(final Session session)
    {
        this.session = session;
    }

    @Override
    public boolean onFrame(final TcpConnection connection, final UnsafeBuffer buffer, final int offset, final int length,
        final long nowNanos)
    {
        return session.onMessage(buffer, offset, length, nowNanos);
    }

    @Override
    public void onGarbled(final TcpConnection connection, final String why)
    {
        session.onGarbledFrame(why);
    }

    @Override
    public void beforeWrite(final TcpConnection connection)
    {
        session.beforeTransportWrite();
    }

    @Override
    public void onClosed(final TcpConnection connection, final String reason)
    {
        if (session.transport() == connection)
        {
            session.onDisconnect(reason);
        }
    }
}
