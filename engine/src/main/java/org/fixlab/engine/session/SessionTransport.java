package org.fixlab.engine.session;

import org.agrona.MutableDirectBuffer;

/**
 * What a session needs from the connection it is bound to: room in an outbound buffer and a way to
 * close. The TCP implementation lives in the transport package; tests bind sessions to an in-memory
 * one, so the state machine is tested without sockets.
 */
public interface SessionTransport
{
    /** Returned by {@link #claim} when the outbound buffer has no room even after a flush attempt. */
    int BACK_PRESSURED = -1;

    /**
     * Reserves {@code length} bytes in the outbound buffer and returns the offset to write them at,
     * or {@link #BACK_PRESSURED}. Never blocks and never grows the buffer.
     */
    int claim(int length);

    /**
     * Whether a {@link #claim} of {@code length} bytes would succeed now, without reserving anything
     * (it may flush, as a claim does). The session asks before it processes a message it answers at
     * once, so that a TestRequest whose Heartbeat could not be buffered waits instead of being consumed
     * unanswered, and before each resent message, to leave room for new ones.
     */
    boolean hasRoom(int length);

    /** Makes the bytes written at a claimed offset part of the stream. */
    void commit(int offset, int length);

    MutableDirectBuffer outboundBuffer();

    /** Flushes what was committed (best effort, non-blocking) and closes the connection. */
    void disconnect(String reason);

    boolean isOpen();

    /** {@code System.nanoTime()} when the bytes of the message being delivered were read from the socket (t3). */
    long readNanos();

    /** {@code System.nanoTime()} just before the last write of buffered bytes to the socket (t2). */
    long writeNanos();

    /** The negotiated TLS protocol and cipher suite ("TLSv1.3 TLS_AES_256_GCM_SHA384"), or null without TLS. */
    default String tlsSession()
    {
        return null;
    }
}
