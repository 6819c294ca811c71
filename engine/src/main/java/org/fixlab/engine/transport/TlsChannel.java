package org.fixlab.engine.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * TLS over one non-blocking socket, driven by the duty cycle that polls and flushes the
 * {@link TcpConnection}: no thread of its own, the handshake advances whenever the connection reads
 * or writes, and the handshake's delegated tasks (certificate checks) run inline on the engine
 * thread. The two ciphertext buffers are allocated once per connection, on the heap, at the size the
 * {@link SSLEngine} asks for; the plaintext stays in the connection's own buffers. On the heap because the
 * JDK's AES-GCM takes another path for a direct record, with more buffer views, counters and arrays made per
 * record, while the socket passes a heap buffer through a direct one it keeps per thread, which makes nothing
 * new: 3.6 KB a round trip on each side with direct buffers, 2.6 KB with these. (Unless the JVM runs with
 * {@code jdk.nio.maxCachedBufferSize} below the packet size, some 16.7 KB: the JDK then allocates and frees a direct
 * buffer for every read.)
 *
 * <p>{@link SSLEngine#wrap}/{@link SSLEngine#unwrap} return a new {@link SSLEngineResult} per call, and the
 * JDK's record layer and ciphers allocate inside them, mostly AES-GCM's state, made anew for each record's
 * nonce: about 1.3 KB a record, 2.6 KB a round trip of one order and its answer on each side in the benchmark
 * (JDK 17). Nothing here can avoid that short of another TLS implementation;
 * what this class can, it does: no call into the engine while nothing is buffered (an idle poll's unwrap cost
 * 0.9-1.6 KB more a round trip, the more the longer it waited). A plaintext connection does not use this class
 * at all and allocates nothing.
 */
final class TlsChannel
{
    private static final ByteBuffer NO_DATA = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final SSLEngine engine;
    /** Ciphertext read from the socket and not yet decrypted; kept in write mode between calls. */
    private final ByteBuffer netIn;
    /** Ciphertext encrypted and not yet taken by the socket, between position and limit. */
    private final ByteBuffer netOut;
    /**
     * One-element arrays for the SSLEngine's array forms of wrap and unwrap: the single-buffer forms wrap
     * their argument in a new array on every call (JDK 17, 24 bytes each).
     */
    private final ByteBuffer[] plaintextSource = new ByteBuffer[1];
    private final ByteBuffer[] plaintextTarget = new ByteBuffer[1];
    private boolean handshakeDone;

    TlsChannel(final SocketChannel channel, final SSLEngine engine) throws SSLException
    {
        this.channel = channel;
        this.engine = engine;
        final int packetSize = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocate(packetSize);
        netOut = ByteBuffer.allocate(packetSize);
        netOut.flip();
        engine.beginHandshake();
    }

    /** The room an inbound buffer needs for one decrypted record. */
    int applicationBufferSize()
    {
        return engine.getSession().getApplicationBufferSize();
    }

    boolean isHandshakeDone()
    {
        return handshakeDone;
    }

    /** The negotiated protocol and cipher suite, e.g. "TLSv1.3 TLS_AES_256_GCM_SHA384". */
    String describeSession()
    {
        return engine.getSession().getProtocol() + " " + engine.getSession().getCipherSuite();
    }

    /** Whether {@link #write} has something to send even without new plaintext: handshake records, or ciphertext the socket did not take. */
    boolean hasPendingOutput()
    {
        return netOut.hasRemaining() || engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP;
    }

    /**
     * Reads what the socket has and decrypts it into {@code dst}, answering the handshake on the way. The socket is
     * read again only after a read that filled the ciphertext buffer (more may be waiting): once a read's records are
     * decrypted the plaintext goes to the application, where reading until the socket was empty put an empty read, a
     * system call, on every message's way in. Nothing buffered after the handshake means nothing to unwrap, and no
     * call into the SSLEngine (each returns a new result object).
     *
     * @return plaintext bytes added to {@code dst} (0 when a record is incomplete, or when {@code dst}
     * needs {@link #applicationBufferSize()} of room first), -1 when the peer has closed.
     */
    int read(final ByteBuffer dst) throws IOException
    {
        int produced = 0;
        boolean readAgain = true;
        while (true)
        {
            if (netIn.position() > 0 || !handshakeDone)
            {
                netIn.flip();
                final SSLEngineResult result;
                try
                {
                    plaintextTarget[0] = dst;
                    result = engine.unwrap(netIn, plaintextTarget, 0, 1);
                }
                finally
                {
                    netIn.compact();
                }
                produced += result.bytesProduced();
                noteHandshake(result);
                if (advanceHandshake(result.getHandshakeStatus()))
                {
                    continue;
                }
                switch (result.getStatus())
                {
                    case BUFFER_OVERFLOW:
                        return produced;
                    case CLOSED:
                        return produced > 0 ? produced : -1;
                    case OK:
                        if (result.bytesConsumed() > 0)
                        {
                            continue;
                        }
                        break;
                    default: // BUFFER_UNDERFLOW: a record is incomplete
                        break;
                }
            }
            if (!readAgain)
            {
                return produced;
            }
            final int read = channel.read(netIn);
            readAgain = !netIn.hasRemaining();
            if (read < 0)
            {
                return produced > 0 ? produced : -1;
            }
            if (read == 0)
            {
                return produced;
            }
        }
    }

    /**
     * Encrypts from {@code src} and writes as much as the socket takes. Before the handshake is done
     * no plaintext is taken (the handshake records go out instead).
     *
     * @return plaintext bytes taken from {@code src}.
     */
    int write(final ByteBuffer src) throws IOException
    {
        int consumed = 0;
        while (flushCiphertext() && (src.hasRemaining() || engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP))
        {
            netOut.clear();
            final SSLEngineResult result;
            try
            {
                plaintextSource[0] = src;
                result = engine.wrap(plaintextSource, 0, 1, netOut);
            }
            finally
            {
                netOut.flip();
            }
            consumed += result.bytesConsumed();
            if (result.getStatus() == SSLEngineResult.Status.CLOSED)
            {
                flushCiphertext();
                throw new SSLException("the TLS session is closed");
            }
            noteHandshake(result);
            if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK)
            {
                runDelegatedTasks();
            }
            if (result.bytesConsumed() == 0 && result.bytesProduced() == 0)
            {
                break; // the handshake waits for the peer
            }
        }
        return consumed;
    }

    /** Sends close_notify, or the alert a failed handshake owes the peer, as far as the socket takes it now. */
    void closeQuietly()
    {
        try
        {
            engine.closeOutbound();
            write(NO_DATA);
        }
        catch (final IOException | RuntimeException ignored)
        {
            // the connection is going away; the peer sees the FIN either way
        }
    }

    /** @return whether {@link #read} should unwrap again at once (a handshake step was taken). */
    private boolean advanceHandshake(final HandshakeStatus status) throws IOException
    {
        switch (status)
        {
            case NEED_TASK:
                runDelegatedTasks();
                return true;
            case NEED_WRAP:
                write(NO_DATA);
                return !netOut.hasRemaining() && engine.getHandshakeStatus() != HandshakeStatus.NEED_WRAP;
            default:
                return false;
        }
    }

    /**
     * FINISHED is reported once, by the call that completes the handshake, and with TLS 1.3 not
     * always (JDK-8240871): a successful call that is no longer handshaking also means done.
     */
    private void noteHandshake(final SSLEngineResult result)
    {
        final HandshakeStatus status = result.getHandshakeStatus();
        if (status == HandshakeStatus.FINISHED ||
            (status == HandshakeStatus.NOT_HANDSHAKING && result.getStatus() == SSLEngineResult.Status.OK))
        {
            handshakeDone = true;
        }
    }

    /** Certificate checks and key computations, on this thread: the engine has no other. */
    private void runDelegatedTasks()
    {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; )
        {
            task.run();
        }
    }

    /** @return whether all ciphertext is out. */
    private boolean flushCiphertext() throws IOException
    {
        while (netOut.hasRemaining())
        {
            if (channel.write(netOut) == 0)
            {
                return false;
            }
        }
        return true;
    }
}
