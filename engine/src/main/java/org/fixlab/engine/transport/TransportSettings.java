package org.fixlab.engine.transport;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

import org.fixlab.engine.config.EngineConfiguration;

/**
 * Socket options, buffer sizes, the slow-reader timeout and TLS ({@code tls} null for plaintext)
 * applied to every connection, read once from the configuration.
 */
public record TransportSettings(boolean tcpNoDelay, int socketSendBufferSize, int socketReceiveBufferSize,
    int inboundBufferSize, int outboundBufferSize, int maxMessageSize, long slowReaderTimeoutMs, TlsSettings tls)
{
    public static TransportSettings from(final EngineConfiguration configuration)
    {
        return new TransportSettings(
            configuration.tcpNoDelay(),
            configuration.integer("socketSendBufferSize"),
            configuration.integer("socketReceiveBufferSize"),
            configuration.integer("inboundBufferSize"),
            configuration.integer("outboundBufferSize"),
            configuration.integer("maxMessageSize"),
            configuration.integer("slowReaderTimeoutMs"),
            TlsSettings.from(configuration));
    }

    void apply(final SocketChannel channel) throws IOException
    {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, tcpNoDelay);
        if (socketSendBufferSize > 0)
        {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socketSendBufferSize);
        }
        if (socketReceiveBufferSize > 0)
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, socketReceiveBufferSize);
        }
    }

    /** A connection an acceptor took: TLS server side when TLS is on. */
    TcpConnection openAccepted(final SocketChannel channel, final TcpConnection.FrameHandler handler, final long nowNanos)
        throws IOException
    {
        return open(channel, tls == null ? null : new TlsChannel(channel, tls.newEngine(false, null, 0)), handler, nowNanos);
    }

    /** A connection an initiator made to host:port: TLS client side, checking the host name, when TLS is on. */
    TcpConnection openConnected(final SocketChannel channel, final String host, final int port,
        final TcpConnection.FrameHandler handler, final long nowNanos) throws IOException
    {
        return open(channel, tls == null ? null : new TlsChannel(channel, tls.newEngine(true, host, port)), handler, nowNanos);
    }

    private TcpConnection open(final SocketChannel channel, final TlsChannel tlsChannel, final TcpConnection.FrameHandler handler,
        final long nowNanos)
    {
        return new TcpConnection(channel, tlsChannel, inboundBufferSize, outboundBufferSize, maxMessageSize, handler, nowNanos);
    }
}
