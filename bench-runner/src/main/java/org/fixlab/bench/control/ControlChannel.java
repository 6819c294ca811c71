package org.fixlab.bench.control;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fixlab.bench.BenchException;

/**
 * The side channel between client and server, next to the FIX port: the client says what it will
 * run, the server answers with its hardware (so a two-host manifest has both hosts) or a refusal,
 * and after the run the server sends what it measured (stream progress, per-message timestamps).
 * Plain TCP with DataInput/DataOutput: nothing on it is timed.
 */
public final class ControlChannel implements AutoCloseable
{
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private volatile boolean peerDone;
    private volatile boolean peerGone;
    private long nextCloseCheckNanos;

    private static final long CLOSE_CHECK_INTERVAL_NANOS = 200_000_000L;

    private ControlChannel(final Socket socket) throws IOException
    {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
    }

    public static ServerSocket bind(final String bind, final int port)
    {
        try
        {
            final ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(bind, port));
            return server;
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot listen on control port " + bind + ":" + port + " (" + ex.getMessage() + "; port in use?)");
        }
    }

    public static ControlChannel accept(final ServerSocket server, final int timeoutSeconds)
    {
        try
        {
            server.setSoTimeout(timeoutSeconds * 1000);
            return new ControlChannel(server.accept());
        }
        catch (final IOException ex)
        {
            throw new BenchException("no client connected to the control port within " + timeoutSeconds + " s (" + ex.getMessage() + ")");
        }
    }

    /**
     * Whether a connection reached its own socket. A connect to a local port nobody listens on, in the range the
     * kernel picks local ports from, can pick that very port for its own end: TCP's simultaneous open then connects
     * the socket to itself, and everything the client wrote came back to it as if the server had answered. With a
     * retry every 20 ms until a server starts, a client once passed its own handshake that way, then waited for a FIX
     * logon nobody would answer (ArgumentErrorsTest in a clean-clone CI run).
     */
    static boolean connectedToItself(final Socket socket)
    {
        return socket.getLocalPort() == socket.getPort() && socket.getLocalAddress().equals(socket.getInetAddress());
    }

    /** Connects, retrying until the deadline: the server may still be starting. */
    public static ControlChannel connect(final String host, final int port, final long deadlineNanos)
    {
        while (true)
        {
            final Socket socket = new Socket();
            try
            {
                socket.connect(new InetSocketAddress(host, port), 1000);
                if (connectedToItself(socket))
                {
                    throw new ConnectException("Connection refused (the attempt reached its own socket)");
                }
                return new ControlChannel(socket);
            }
            catch (final IOException ex)
            {
                try
                {
                    socket.close();
                }
                catch (final IOException ignored)
                {
                    // nothing was opened
                }
                if (System.nanoTime() > deadlineNanos)
                {
                    throw new BenchException("server unreachable at " + host + ":" + port + " (control port: " + ex.getMessage()
                        + "); is the matching runServer script running there?");
                }
                try
                {
                    Thread.sleep(20);
                }
                catch (final InterruptedException ie)
                {
                    Thread.currentThread().interrupt();
                    throw new BenchException("interrupted while connecting to " + host + ":" + port);
                }
            }
        }
    }

    public String peerAddress()
    {
        return socket.getInetAddress().getHostAddress();
    }

    public String localAddress()
    {
        return socket.getLocalAddress().getHostAddress();
    }

    public void sendMap(final Map<String, String> map)
    {
        try
        {
            out.writeInt(map.size());
            for (final Map.Entry<String, String> e : map.entrySet())
            {
                out.writeUTF(e.getKey());
                writeString(e.getValue());
            }
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new BenchException("control channel: the peer went away (" + ex.getMessage() + ")");
        }
    }

    public Map<String, String> readMap()
    {
        try
        {
            final int n = in.readInt();
            final Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < n; i++)
            {
                map.put(in.readUTF(), readString());
            }
            return map;
        }
        catch (final IOException ex)
        {
            throw new BenchException("control channel: the peer went away (" + ex.getMessage() + ")");
        }
    }

    public void sendArrays(final Map<String, long[]> arrays)
    {
        try
        {
            out.writeInt(arrays.size());
            for (final Map.Entry<String, long[]> e : arrays.entrySet())
            {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().length);
                for (final long v : e.getValue())
                {
                    out.writeLong(v);
                }
            }
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new BenchException("control channel: the peer went away (" + ex.getMessage() + ")");
        }
    }

    public Map<String, long[]> readArrays()
    {
        try
        {
            final int n = in.readInt();
            final Map<String, long[]> arrays = new LinkedHashMap<>();
            for (int i = 0; i < n; i++)
            {
                final String name = in.readUTF();
                final long[] values = new long[in.readInt()];
                for (int j = 0; j < values.length; j++)
                {
                    values[j] = in.readLong();
                }
                arrays.put(name, values);
            }
            return arrays;
        }
        catch (final IOException ex)
        {
            throw new BenchException("control channel: the server went away before sending its results (" + ex.getMessage() + ")");
        }
    }

    /** Server: a thread waits for the client's "done", then for its disconnect, while the main thread polls. */
    public void watchForDone()
    {
        final Thread watcher = new Thread(() ->
        {
            try
            {
                if ("done".equals(in.readUTF()))
                {
                    peerDone = true;
                    // and then for the close, which ends the server's linger at once: the client measures the CPUs
                    // again when the server has stopped polling (CoreToCoreProbe)
                    while (in.read() >= 0)
                    {
                        // nothing more is sent after "done"
                    }
                }
            }
            catch (final IOException ex)
            {
                // the client went away
            }
            peerGone = true;
        }, "control-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    public boolean peerDone()
    {
        return peerDone;
    }

    public boolean peerGone()
    {
        return peerGone;
    }

    /**
     * Client: the stream is sent. The next look for a closed channel ({@link #peekResults}, a blocking read of up to 1 ms)
     * comes an interval from now: the server is still reading the orders the client holds, which go out only while the
     * client's thread polls its session, not while it waits on this channel.
     */
    public void sendDone()
    {
        nextCloseCheckNanos = System.nanoTime() + CLOSE_CHECK_INTERVAL_NANOS;
        try
        {
            out.writeUTF("done");
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new BenchException("control channel: the server went away (" + ex.getMessage() + ")");
        }
    }

    /** Client: true once the server has started to send its results. */
    public boolean resultsArriving()
    {
        try
        {
            if (in.available() > 0)
            {
                return true;
            }
            final long now = System.nanoTime();
            if (now < nextCloseCheckNanos)
            {
                return false;
            }
            nextCloseCheckNanos = now + CLOSE_CHECK_INTERVAL_NANOS;
            return peekResults();
        }
        catch (final IOException ex)
        {
            throw new BenchException("control channel: the server went away (" + ex.getMessage() + ")");
        }
    }

    /**
     * available() reads 0 both from a server still counting and from one that gave up and exited; a read
     * of one byte with a 1 ms timeout, put back with mark/reset, tells them apart. Without it a client
     * whose server failed waits out its whole timeout.
     */
    private boolean peekResults() throws IOException
    {
        final int timeout = socket.getSoTimeout();
        in.mark(1);
        socket.setSoTimeout(1);
        try
        {
            if (in.read() < 0)
            {
                throw new BenchException("control channel: the server closed it before sending its results (its log says why)");
            }
            in.reset();
            return true;
        }
        catch (final SocketTimeoutException quiet)
        {
            return false;
        }
        finally
        {
            socket.setSoTimeout(timeout);
        }
    }

    private void writeString(final String s) throws IOException
    {
        final byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private String readString() throws IOException
    {
        final byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close()
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            // closing at exit
        }
    }
}
