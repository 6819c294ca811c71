package org.fixlab.engine.transport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionLog;

/**
 * Keeps an initiator session connected: connects without blocking, and after every failure or
 * disconnect waits before the next attempt, doubling the pause up to a maximum so a peer that is
 * down is not hammered. A completed Logon resets the pause.
 */
public final class InitiatorConnector
{
    private final Session session;
    private final InetSocketAddress address;
    private final String host;
    private final TransportSettings transport;
    private final SessionBinding binding;
    private final SessionLog log;
    private final long initialBackoffNanos;
    private final long maxBackoffNanos;
    private long backoffNanos;
    private long nextAttemptNanos;
    private SocketChannel connecting;
    private SelectionKey connectKey;
    private boolean enabled = true;
    private boolean wasConnected;
    private int attempts;

    public InitiatorConnector(final Session session, final String host, final int port, final TransportSettings transport,
        final long initialBackoffMs, final long maxBackoffMs, final SessionLog log)
    {
        this.session = session;
        this.address = new InetSocketAddress(host, port);
        this.host = host;
        this.transport = transport;
        this.binding = new SessionBinding(session);
        this.log = log;
        this.initialBackoffNanos = TimeUnit.MILLISECONDS.toNanos(initialBackoffMs);
        this.maxBackoffNanos = TimeUnit.MILLISECONDS.toNanos(maxBackoffMs);
        this.backoffNanos = initialBackoffNanos;
    }

    public Session session()
    {
        return session;
    }

    /** Connection attempts made so far (for tests and operators). */
    public int attempts()
    {
        return attempts;
    }

    /** Stops reconnecting (after a deliberate logout, or on engine close). */
    public void disable()
    {
        enabled = false;
        abandonAttempt();
    }

    public void enable()
    {
        enabled = true;
    }

    /** Starts an attempt when one is due. Returns work done. */
    int doWork(final long nowNanos, final Selector selector)
    {
        if (session.isLoggedOn())
        {
            backoffNanos = initialBackoffNanos;
        }
        if (session.isConnected())
        {
            wasConnected = true;
            return 0;
        }
        if (wasConnected)
        {
            // the session just lost its connection: wait before trying again
            wasConnected = false;
            nextAttemptNanos = nowNanos + backoffNanos;
            return 1;
        }
        if (!enabled || connecting != null || nowNanos < nextAttemptNanos)
        {
            return 0;
        }
        attempts++;
        try
        {
            final SocketChannel channel = SocketChannel.open();
            transport.apply(channel);
            connecting = channel;
            if (channel.connect(address))
            {
                onConnected(nowNanos);
            }
            else
            {
                connectKey = channel.register(selector, SelectionKey.OP_CONNECT, this);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            failed(nowNanos, ex);
        }
        return 1;
    }

    /** Called by the engine's poller when the pending connect completes or fails. */
    void onConnectable(final long nowNanos)
    {
        try
        {
            if (connecting != null && connecting.finishConnect())
            {
                onConnected(nowNanos);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            failed(nowNanos, ex);
        }
    }

    private TcpConnection pendingConnection;

    /** The connection made by the last successful attempt, handed to the engine to poll, then cleared. */
    TcpConnection takeNewConnection()
    {
        final TcpConnection connection = pendingConnection;
        pendingConnection = null;
        return connection;
    }

    private void onConnected(final long nowNanos) throws IOException
    {
        final SocketChannel channel = connecting;
        connecting = null;
        cancelConnectKey();
        final TcpConnection connection;
        try
        {
            if (connectedToItself(channel))
            {
                throw new ConnectException("Connection refused (the attempt reached its own socket: nothing listens there)");
            }
            connection = transport.openConnected(channel, host, address.getPort(), binding, nowNanos);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
        pendingConnection = connection;
        wasConnected = true;
        log.info(session.id(), "connected to " + address + (connection.isTls() ? " with TLS" : "") + " (attempt " + attempts + ")");
        session.onConnect(connection, nowNanos);
    }

    /**
     * Whether a connection reached its own socket. A connect to a port of this host where nothing listens, in the
     * range the kernel picks local ports from, can pick that very port for its own end: TCP's simultaneous open then
     * connects the socket to itself, and the session would read its own Logon back as the acceptor's answer (and
     * reject it for the CompIDs, or log on to itself when they are the same). Treated as a refused connection.
     */
    static boolean connectedToItself(final SocketChannel channel) throws IOException
    {
        final java.net.SocketAddress local = channel.getLocalAddress();
        return local != null && local.equals(channel.getRemoteAddress());
    }

    private void failed(final long nowNanos, final Exception ex)
    {
        abandonAttempt();
        log.warn(session.id(), "connect to " + address + " failed: " + ex.getMessage() + "; next attempt in " +
            TimeUnit.NANOSECONDS.toMillis(backoffNanos) + " ms");
        nextAttemptNanos = nowNanos + backoffNanos;
        backoffNanos = Math.min(maxBackoffNanos, backoffNanos * 2);
    }

    private void cancelConnectKey()
    {
        if (connectKey != null)
        {
            // the connection is read by polling, not through the selector
            connectKey.cancel();
            connectKey = null;
        }
    }

    private void abandonAttempt()
    {
        cancelConnectKey();
        if (connecting != null)
        {
            try
            {
                connecting.close();
            }
            catch (final IOException ignored)
            {
                // the attempt is abandoned either way
            }
            connecting = null;
        }
    }
}
