package org.fixlab.engine.transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionLog;

/**
 * The engine's duty cycle: write what the application sent since the last cycle, accept and connect,
 * read every connection and deliver its messages, advance session timers, then write what the cycle
 * produced, batched per connection. One thread
 * runs it (an Agrona AgentRunner, or the application's own thread calling {@link #doWork}), and
 * that thread owns every session and connection in it.
 */
public final class EventLoop implements Agent, AutoCloseable
{
    /** How often the selector is asked for new connections while connections are busy. */
    private static final long NETWORK_POLL_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EpochNanoClock clock;
    private final TransportSettings transport;
    private final SessionLog log;
    private final NetworkPoller poller = new NetworkPoller();
    private final List<TcpConnection> connections = new ArrayList<>();
    private final List<Session> sessions = new ArrayList<>();
    private final List<InitiatorConnector> connectors = new ArrayList<>();
    private final AcceptorRouter router;
    private final int maxPendingConnections;
    private final long pendingTimeoutNanos;
    private final long slowReaderTimeoutNanos;
    private long lastNetworkPollNanos = Long.MIN_VALUE / 2;

    public EventLoop(final EpochNanoClock clock, final TransportSettings transport, final int maxFieldsPerMessage,
        final int maxPendingConnections, final int logonTimeoutSeconds, final SessionLog log)
    {
        this.clock = clock;
        this.transport = transport;
        this.log = log;
        this.router = new AcceptorRouter(maxFieldsPerMessage, log);
        this.maxPendingConnections = maxPendingConnections;
        this.pendingTimeoutNanos = TimeUnit.SECONDS.toNanos(logonTimeoutSeconds);
        this.slowReaderTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(transport.slowReaderTimeoutMs());
    }

    public void addAcceptorSession(final Session session)
    {
        router.add(session);
        sessions.add(session);
    }

    public InitiatorConnector addInitiatorSession(final Session session, final String host, final int port,
        final long reconnectIntervalMs, final long reconnectMaxIntervalMs)
    {
        final InitiatorConnector connector = new InitiatorConnector(session, host, port, transport, reconnectIntervalMs,
            reconnectMaxIntervalMs, log);
        sessions.add(session);
        connectors.add(connector);
        return connector;
    }

    /** Starts accepting on host:port for the acceptor sessions; returns the port (useful with 0). */
    public int listen(final String host, final int port) throws IOException
    {
        if (transport.tls() != null)
        {
            transport.tls().checkCanAccept();
        }
        return poller.listen(host, port, this::onAccepted);
    }

    private void onAccepted(final SocketChannel channel, final long nowNanos)
    {
        try
        {
            if (pendingConnections() >= maxPendingConnections)
            {
                log.warn(null, "closing connection from " + channel.getRemoteAddress() + ": " + maxPendingConnections +
                    " connections are already waiting to log on");
                channel.close();
                return;
            }
            transport.apply(channel);
            connections.add(transport.openAccepted(channel, router, nowNanos));
        }
        catch (final IOException ex)
        {
            log.warn(null, "could not set up an accepted connection: " + ex.getMessage());
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // already failing
            }
        }
    }

    private int pendingConnections()
    {
        int pending = 0;
        for (int i = 0, n = connections.size(); i < n; i++)
        {
            if (router.isPending(connections.get(i)))
            {
                pending++;
            }
        }
        return pending;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        // What the application sent since the last cycle leaves first, before this cycle's reads: an empty read is a
        // system call, and writing after it put one on the send path of every message sent between cycles. Before
        // the clock too, which nothing in a write needs: a clock read is 20-40 ns on the send path of each message
        for (int i = 0, n = connections.size(); i < n; i++)
        {
            work += connections.get(i).flush();
        }
        final long now = clock.nanoTime();
        if (connections.isEmpty() || now - lastNetworkPollNanos >= NETWORK_POLL_INTERVAL_NANOS)
        {
            lastNetworkPollNanos = now;
            work += poller.poll(now);
        }
        for (int i = 0; i < connections.size(); i++)
        {
            work += connections.get(i).poll(now);
        }
        for (int i = 0, n = sessions.size(); i < n; i++)
        {
            work += sessions.get(i).doWork(now);
        }
        for (int i = 0, n = connectors.size(); i < n; i++)
        {
            final InitiatorConnector connector = connectors.get(i);
            work += connector.doWork(now, poller.selector());
            final TcpConnection connected = connector.takeNewConnection();
            if (connected != null)
            {
                connections.add(connected);
            }
        }
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final TcpConnection connection = connections.get(i);
            if (connection.isOpen())
            {
                work += connection.flush();
                if (router.isPending(connection) && now - connection.openedAtNanos() > pendingTimeoutNanos)
                {
                    connection.close("no Logon within the logon timeout");
                }
                else if (connection.isSlowReader(now, slowReaderTimeoutNanos))
                {
                    connection.close("slow reader: the peer is not reading, " + connection.pendingBytes() +
                        " bytes waiting and none written for " + TimeUnit.NANOSECONDS.toMillis(connection.stalledNanos(now)) +
                        " ms (slowReaderTimeoutMs " + transport.slowReaderTimeoutMs() + ")");
                }
            }
            if (!connection.isOpen())
            {
                final int last = connections.size() - 1;
                connections.set(i, connections.get(last));
                connections.remove(last);
            }
        }
        return work;
    }

    /** Connections currently open, pending ones included. */
    public int connectionCount()
    {
        return connections.size();
    }

    @Override
    public String roleName()
    {
        return "fixlab-engine";
    }

    @Override
    public void onClose()
    {
        close();
    }

    @Override
    public void close()
    {
        for (final InitiatorConnector connector : connectors)
        {
            connector.disable();
        }
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            connections.get(i).disconnect("engine closed");
        }
        connections.clear();
        poller.close();
    }
}
