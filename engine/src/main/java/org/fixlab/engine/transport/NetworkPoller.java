package org.fixlab.engine.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The selector for connection set-up only: accepting on listening ports and completing initiator
 * connects. Established connections are read by polling them directly each duty cycle, which costs
 * one system call instead of two on the latency path.
 */
final class NetworkPoller implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(NetworkPoller.class);

    interface AcceptHandler
    {
        void onAccepted(SocketChannel channel, long nowNanos);
    }

    private final Selector selector;
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private final Consumer<SelectionKey> onReady = this::onReady;
    private long nowNanos;
    private int work;

    NetworkPoller()
    {
        try
        {
            selector = Selector.open();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a selector", ex);
        }
    }

    Selector selector()
    {
        return selector;
    }

    /** Listens on host:port (port 0 picks a free one); returns the bound port. */
    int listen(final String host, final int port, final AcceptHandler handler) throws IOException
    {
        final ServerSocketChannel server = ServerSocketChannel.open();
        try
        {
            server.bind(new InetSocketAddress(host, port), 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT, handler);
        }
        catch (final IOException ex)
        {
            server.close();
            throw new IOException("cannot listen on " + host + ":" + port + ": " + ex.getMessage(), ex);
        }
        listeners.add(server);
        return ((InetSocketAddress)server.getLocalAddress()).getPort();
    }

    int poll(final long nowNanos)
    {
        // Nothing to select on (an initiator once connected: its connect key is gone after the selection that followed
        // its cancel): no system call, and no JDK selector code run a thousand times a second, which the JIT went on
        // compiling for seconds, into the benchmark's measured window, with a compiler thread taking a CPU from a
        // busy-spinning one.
        if (selector.keys().isEmpty())
        {
            return 0;
        }
        this.nowNanos = nowNanos;
        this.work = 0;
        try
        {
            selector.selectNow(onReady);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("selector failed", ex);
        }
        return work;
    }

    private void onReady(final SelectionKey key)
    {
        work++;
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            final ServerSocketChannel server = (ServerSocketChannel)key.channel();
            final AcceptHandler handler = (AcceptHandler)key.attachment();
            try
            {
                SocketChannel channel;
                while ((channel = server.accept()) != null)
                {
                    handler.onAccepted(channel, nowNanos);
                }
            }
            catch (final IOException ex)
            {
                LOG.warn("accept failed: {}", ex.getMessage());
            }
        }
        else if (key.isConnectable())
        {
            ((InitiatorConnector)key.attachment()).onConnectable(nowNanos);
        }
    }

    @Override
    public void close()
    {
        for (final ServerSocketChannel listener : listeners)
        {
            try
            {
                listener.close();
            }
            catch (final IOException ignored)
            {
                // closing on shutdown is best effort
            }
        }
        try
        {
            selector.close();
        }
        catch (final IOException ignored)
        {
            // closing on shutdown is best effort
        }
    }
}
