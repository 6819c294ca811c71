package org.fixlab.engine.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import javax.net.ssl.SSLException;

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
 *
 * <p>With TLS the same buffers hold plaintext and a {@link TlsChannel} sits between them and the
 * socket; the handshake advances on every poll and flush, and the session's Logon waits in the
 * outbound buffer until it is done. Without TLS the socket is read and written directly.
 */
public final class TcpConnection implements SessionTransport
{
    /** Receives what the framer finds. */
    public interface FrameHandler
    {
        /**
         * One complete frame. Returns false when it was not consumed: the connection keeps it, and
         * everything read after it, and delivers it again on its next poll.
         */
        boolean onFrame(TcpConnection connection, UnsafeBuffer buffer, int offset, int length, long nowNanos);

        void onGarbled(TcpConnection connection, String why);

        void onClosed(TcpConnection connection, String reason);

        /**
         * Committed bytes are about to be written to the socket: whatever the session holds back for
         * them (its store's batch of the duty cycle) must reach the operating system first.
         */
        default void beforeWrite(final TcpConnection connection)
        {
        }
    }

    private final SocketChannel channel;
    private final ByteBuffer inboundBytes;
    private final UnsafeBuffer inbound;
    private final ByteBuffer outboundBytes;
    private final UnsafeBuffer outbound;
    private final MessageFramer framer;
    private final String remote;
    /** Null on a plaintext connection. */
    private final TlsChannel tls;
    /** Room the inbound buffer must have before a read: one decrypted TLS record, or one byte. */
    private final int minReadRoom;
    private boolean firstRead = true;
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
    /** A frame was refused by the handler: the next poll delivers it again, even when no new bytes arrive. */
    private boolean redeliveryPending;
    private long bytesWritten;
    private long bytesWrittenAtLastCheck;
    private long outboundProgressNanos;

    public TcpConnection(final SocketChannel channel, final int inboundBufferSize, final int outboundBufferSize,
        final int maxMessageSize, final FrameHandler handler, final long nowNanos)
    {
        this(channel, null, inboundBufferSize, outboundBufferSize, maxMessageSize, handler, nowNanos);
    }

    TcpConnection(final SocketChannel channel, final TlsChannel tls, final int inboundBufferSize, final int outboundBufferSize,
        final int maxMessageSize, final FrameHandler handler, final long nowNanos)
    {
        this.channel = channel;
        this.tls = tls;
        this.minReadRoom = tls == null ? 1 : tls.applicationBufferSize();
        // with TLS a partial message at the front must still leave room for a whole decrypted record
        this.inboundBytes = ByteBuffer.allocateDirect(Math.max(inboundBufferSize, maxMessageSize) + (tls == null ? 0 : minReadRoom));
        this.inbound = new UnsafeBuffer(inboundBytes);
        this.outboundBytes = ByteBuffer.allocateDirect(outboundBufferSize);
        this.outbound = new UnsafeBuffer(outboundBytes);
        this.framer = new MessageFramer(maxMessageSize);
        this.handler = handler;
        this.openedAtNanos = nowNanos;
        this.outboundProgressNanos = nowNanos;
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
        if (inbound.capacity() - writeOffset < minReadRoom)
        {
            compactInbound();
        }
        final int read;
        try
        {
            inboundBytes.limit(inboundBytes.capacity()).position(writeOffset);
            read = tls == null ? channel.read(inboundBytes) : tls.read(inboundBytes);
        }
        catch (final SSLException ex)
        {
            close(tlsFailure(ex));
            return 0;
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
            if (redeliveryPending)
            {
                deliverFrames(nowNanos);
                return redeliveryPending ? 0 : 1;
            }
            return 0;
        }
        readNanos = System.nanoTime();
        writeOffset += read;
        if (firstRead)
        {
            firstRead = false;
            if (tls == null && TlsRecords.startsWithTlsRecord(inbound, writeOffset))
            {
                close("the peer speaks TLS on a plaintext connection (enable tlsEnabled on this side, or disable TLS on the peer)");
                return read;
            }
        }
        deliverFrames(nowNanos);
        return read;
    }

    private void deliverFrames(final long nowNanos)
    {
        redeliveryPending = false;
        while (open && readOffset < writeOffset)
        {
            final int result = framer.scan(inbound, readOffset, writeOffset);
            if (result == MessageFramer.FRAME)
            {
                final int frameStart = framer.frameStart();
                final int resumeAt = framer.resumeAt();
                if (!handler.onFrame(this, inbound, frameStart, framer.frameLength(), nowNanos))
                {
                    // refused for now (back-pressure): keep it at the front, stop delivering behind it
                    readOffset = frameStart;
                    redeliveryPending = open;
                    break;
                }
                readOffset = resumeAt;
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
            compactInbound();
        }
    }

    /** Moves the partial message to the front so the rest of it has room. */
    private void compactInbound()
    {
        final int remaining = writeOffset - readOffset;
        inbound.putBytes(0, inbound, readOffset, remaining);
        readOffset = 0;
        writeOffset = remaining;
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
    public boolean hasRoom(final int length)
    {
        if (!open)
        {
            return false;
        }
        if (committedUpTo + length > outbound.capacity())
        {
            flush();
            compactOutbound();
        }
        return committedUpTo + length <= outbound.capacity();
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
        if (!open || (committedUpTo == flushedUpTo && (tls == null || !tls.hasPendingOutput())))
        {
            return 0;
        }
        handler.beforeWrite(this);
        try
        {
            outboundBytes.limit(committedUpTo).position(flushedUpTo);
            writeNanos = System.nanoTime();
            final int written = tls == null ? channel.write(outboundBytes) : tls.write(outboundBytes);
            flushedUpTo += written;
            bytesWritten += written;
            if (flushedUpTo == committedUpTo)
            {
                flushedUpTo = 0;
                committedUpTo = 0;
            }
            return written;
        }
        catch (final SSLException ex)
        {
            close(tlsFailure(ex));
            return 0;
        }
        catch (final IOException ex)
        {
            close("write failed: " + ex.getMessage());
            return 0;
        }
    }

    /**
     * The slow-reader check, once per duty cycle on the loop's clock: true when bytes have been waiting
     * in the outbound buffer and none of them reached the socket for longer than {@code timeoutNanos}.
     * A buffer that fills up but keeps draining, however briefly full, is never a slow reader.
     */
    public boolean isSlowReader(final long nowNanos, final long timeoutNanos)
    {
        if (pendingBytes() == 0 || bytesWritten != bytesWrittenAtLastCheck)
        {
            bytesWrittenAtLastCheck = bytesWritten;
            outboundProgressNanos = nowNanos;
            return false;
        }
        return nowNanos - outboundProgressNanos > timeoutNanos;
    }

    /** How long the outbound buffer has made no progress, as of the last {@link #isSlowReader} check. */
    public long stalledNanos(final long nowNanos)
    {
        return nowNanos - outboundProgressNanos;
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
        closeReason = tls != null && !tls.isHandshakeDone() && !reason.startsWith("TLS") ?
            reason + " (TLS handshake not complete)" : reason;
        if (tls != null)
        {
            tls.closeQuietly();
        }
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // closing is best effort: the peer sees the FIN or an RST either way
        }
        handler.onClosed(this, closeReason);
    }

    /** Whether this connection runs TLS. */
    public boolean isTls()
    {
        return tls != null;
    }

    /** With TLS: the negotiated protocol and cipher suite once the handshake is done; otherwise null. */
    @Override
    public String tlsSession()
    {
        return tls != null && tls.isHandshakeDone() ? tls.describeSession() : null;
    }

    private String tlsFailure(final SSLException ex)
    {
        return "TLS " + (tls != null && tls.isHandshakeDone() ? "error" : "handshake failed") + " with " + remote + ": " +
            ex.getMessage();
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
