package org.fixlab.engine.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.MessageFramer;
import org.fixlab.engine.session.SessionTransport;

/**
 * One non-blocking TCP connection: an inbound buffer that the framer cuts into messages, and an
 * outbound buffer that sessions write whole messages into. Outbound bytes are written to the socket
 * when the duty cycle ends or when the buffer runs out of room, so messages that queue up within a
 * cycle leave in one write. The buffers never grow: a peer that stops reading shows up as
 * back-pressure, a peer that sends an oversized message is cut off.
 */
public final class TcpConnection implements SessionTransport
{
    /** Receives what the framer finds. */
    public interface FrameHandler
    {
        void onFrame(TcpConnection connection, UnsafeBuffer buffer, int offset, int length, long nowNanos);

        void onGarbled(TcpConnection connection, String why);

        void onClosed(TcpConnection connection, String reason);
    }

    private final SocketChannel channel;
    private final ByteBuffer inboundBytes;
    private final UnsafeBuffer inbound;
    private final ByteBuffer outboundBytes;
    private final UnsafeBuffer outbound;
    private final MessageFramer framer;
    private final String remote;
    private FrameHandler handler;
    private int readOffset;
    private int writeOffset;
    private int flushedUpTo;
    private int committedUpTo;
    private boolean open = true;
    private String closeReason;
    private long readNanos;
    private long writeNanos;
    private final long openedAtNanos;

    public TcpConnection(final SocketChannel channel, final int inboundBufferSize, final int outboundBufferSize,
        final int maxMessageSize, final FrameHandler handler, final long nowNanos)
    {
        this.channel = channel;
        this.inboundBytes = ByteBuffer.allocateDirect(Math.max(inboundBufferSize, maxMessageSize));
        this.inbound = new UnsafeBuffer(inboundBytes);
        this.outboundBytes = ByteBuffer.allocateDirect(outboundBufferSize);
        this.outbound = new UnsafeBuffer(outboundBytes);
        this.framer = new MessageFramer(maxMessageSize);
        this.handler = handler;
        this.openedAtNanos = nowNanos;
        String address;
        try
        {
            address = String.valueOf(channel.getRemoteAddress());
        }
        catch (final IOException ex)
        {
            address = "unknown";
        }
        this.remote = address;
    }

    public void handler(final FrameHandler handler)
    {
        this.handler = handler;
    }

    public FrameHandler handler()
    {
        return handler;
    }

    public String remoteAddress()
    {
        return remote;
    }

    public long openedAtNanos()
    {
        return openedAtNanos;
    }

    public String closeReason()
    {
        return closeReason;
    }

    /** Reads what the socket has and delivers every complete message. Returns bytes read. */
    public int poll(final long nowNanos)
    {
        if (!open)
        {
            return 0;
        }
        final int read;
        try
        {
            inboundBytes.limit(inboundBytes.capacity()).position(writeOffset);
            read = channel.read(inboundBytes);
        }
        catch (final IOException ex)
        {
            close("read failed: " + ex.getMessage());
            return 0;
        }
        if (read < 0)
        {
            close("peer closed the connection");
            return 0;
        }
        if (read == 0)
        {
            return 0;
        }
        readNanos = System.nanoTime();
        writeOffset += read;
        deliverFrames(nowNanos);
        return read;
    }

    private void deliverFrames(final long nowNanos)
    {
        while (open && readOffset < writeOffset)
        {
            final int result = framer.scan(inbound, readOffset, writeOffset);
            if (result == MessageFramer.FRAME)
            {
                readOffset = framer.resumeAt();
                handler.onFrame(this, inbound, framer.frameStart(), framer.frameLength(), nowNanos);
            }
            else if (result == MessageFramer.GARBLED)
            {
                readOffset = framer.resumeAt();
                handler.onGarbled(this, "no CheckSum where BodyLength says the message ends");
            }
            else if (result == MessageFramer.TOO_LARGE)
            {
                close("BodyLength beyond the maximum message size");
                return;
            }
            else
            {
                readOffset = framer.resumeAt();
                break;
            }
        }
        if (readOffset == writeOffset)
        {
            readOffset = 0;
            writeOffset = 0;
        }
        else if (writeOffset == inbound.capacity())
        {
            // move the partial message to the front so the rest of it has room
            final int remaining = writeOffset - readOffset;
            inbound.putBytes(0, inbound, readOffset, remaining);
            readOffset = 0;
            writeOffset = remaining;
        }
    }

    @Override
    public int claim(final int length)
    {
        if (!open)
        {
            return BACK_PRESSURED;
        }
        if (committedUpTo + length > outbound.capacity())
        {
            flush();
            compactOutbound();
            if (committedUpTo + length > outbound.capacity())
            {
                return BACK_PRESSURED;
            }
        }
        return committedUpTo;
    }

    @Override
    public void commit(final int offset, final int length)
    {
        committedUpTo = offset + length;
    }

    @Override
    public MutableDirectBuffer outboundBuffer()
    {
        return outbound;
    }

    /** Bytes committed but not yet accepted by the socket. */
    public int pendingBytes()
    {
        return committedUpTo - flushedUpTo;
    }

    /** Writes as much of the committed bytes as the socket takes now. Returns bytes written. */
    public int flush()
    {
        if (!open || committedUpTo == flushedUpTo)
        {
            return 0;
        }
        try
        {
            outboundBytes.limit(committedUpTo).position(flushedUpTo);
            writeNanos = System.nanoTime();
            final int written = channel.write(outboundBytes);
            flushedUpTo += written;
            if (flushedUpTo == committedUpTo)
            {
                flushedUpTo = 0;
                committedUpTo = 0;
            }
            return written;
        }
        catch (final IOException ex)
        {
            close("write failed: " + ex.getMessage());
            return 0;
        }
    }

    private void compactOutbound()
    {
        if (flushedUpTo > 0)
        {
            final int remaining = committedUpTo - flushedUpTo;
            outbound.putBytes(0, outbound, flushedUpTo, remaining);
            flushedUpTo = 0;
            committedUpTo = remaining;
        }
    }

    @Override
    public void disconnect(final String reason)
    {
        flush();
        close(reason);
    }

    /** Closes the socket once; the handler hears about it exactly once. */
    public void close(final String reason)
    {
        if (!open)
        {
            return;
        }
        open = false;
        closeReason = reason;
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // closing is best effort: the peer sees the FIN or an RST either way
        }
        handler.onClosed(this, reason);
    }

    @Override
    public boolean isOpen()
    {
        return open;
    }

    @Override
    public long readNanos()
    {
        return readNanos;
    }

    @Override
    public long writeNanos()
    {
        return writeNanos;
    }
}
