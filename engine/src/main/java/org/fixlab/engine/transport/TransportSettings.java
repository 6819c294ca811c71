package org.fixlab.engine.transport;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

import org.fixlab.engine.config.EngineConfiguration;

/** Socket options and buffer sizes applied to every connection, read once from the configuration. */
public record TransportSettings(boolean tcpNoDelay, int socketSendBufferSize, int socketReceiveBufferSize,
    int inboundBufferSize, int outboundBufferSize, int maxMessageSize)
{
    public static TransportSettings from(final EngineConfiguration configuration)
    {
        return new TransportSettings(
            configuration.tcpNoDelay(),
            configuration.integer("socketSendBufferSize"),
            configuration.integer("socketReceiveBufferSize"),
            configuration.integer("inboundBufferSize"),
            configuration.integer("outboundBufferSize"),
            configuration.integer("maxMessageSize"));
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

    TcpConnection open(final SocketChannel channel, final TcpConnection.FrameHandler handler, final long nowNanos)
    {
        return new TcpConnection(channel, inboundBufferSize, outboundBufferSize, maxMessageSize, handler, nowNanos);
    }
}
