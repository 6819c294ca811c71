package org.fixlab.bench.raw;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.fixlab.bench.BenchException;

/**
 * The only FIX knowledge the raw-socket baseline has: a message ends 7 bytes after SOH "10=".
 * Reads busy-spin on a non-blocking channel; writes spin until every byte is taken.
 */
final class Framing
{
    private final SocketChannel channel;
    private final ByteBuffer in = ByteBuffer.allocateDirect(256 * 1024);
    private int scan;
    private long readNanos;
    private boolean closed;

    Framing(final SocketChannel channel)
    {
        this.channel = channel;
    }

    /** Reads what is there; returns bytes read (0 when nothing), and notes t3. */
    int read()
    {
        try
        {
            final int n = channel.read(in);
            if (n < 0)
            {
                closed = true;
                return 0;
            }
            if (n > 0)
            {
                readNanos = System.nanoTime();
            }
            return n;
        }
        catch (final IOException ex)
        {
            throw new BenchException("raw-socket: read failed: " + ex.getMessage(), ex);
        }
    }

    /** The next complete message in the read bytes: true and consumed, or false (compacting what is left). */
    boolean nextMessage()
    {
        final int limit = in.position();
        for (int i = scan; i + 7 < limit; i++)
        {
            if (in.get(i) == 1 && in.get(i + 1) == '1' && in.get(i + 2) == '0' && in.get(i + 3) == '=')
            {
                scan = i + 8;
                return true;
            }
        }
        // keep the unfinished message at the front of the buffer for the next read
        in.limit(limit).position(scan);
        in.compact();
        scan = 0;
        return false;
    }

    /** The peer closed its end: normal after a run, an error before its end (the caller decides). */
    boolean closed()
    {
        return closed;
    }

    long readNanos()
    {
        return readNanos;
    }

    static void writeFully(final SocketChannel channel, final ByteBuffer bytes)
    {
        try
        {
            while (bytes.hasRemaining())
            {
                channel.write(bytes);
            }
        }
        catch (final IOException ex)
        {
            throw new BenchException("raw-socket: write failed: " + ex.getMessage(), ex);
        }
    }
}
