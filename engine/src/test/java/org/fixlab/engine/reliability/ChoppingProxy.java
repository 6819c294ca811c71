package org.fixlab.engine.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback that forwards FIX traffic and, every so many bytes, drops the connection in
 * the middle of a message: it forwards a chunk only up to just after a {@code 35=} (so the receiver
 * holds half a message), then closes it towards the receiver and resets the sender. Cuts alternate between the initiator-to-acceptor
 * and the acceptor-to-initiator direction. One connection at a time, as a FIX session has.
 */
final class ChoppingProxy implements AutoCloseable
{
    private final ServerSocket server;
    private final int targetPort;
    private final Random random = new Random();
    private final AtomicInteger cuts = new AtomicInteger();
    private final int maxCuts;
    private final int meanBytesBetweenCuts;
    private volatile boolean running = true;
    private volatile int bytesUntilCut;

    ChoppingProxy(final int targetPort, final int maxCuts, final int meanBytesBetweenCuts)
    {
        this.targetPort = targetPort;
        this.maxCuts = maxCuts;
        this.meanBytesBetweenCuts = meanBytesBetweenCuts;
        this.bytesUntilCut = nextBudget();
        try
        {
            server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Thread acceptor = new Thread(this::acceptLoop, "chopping-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    /** Connections dropped mid-message so far. */
    int cuts()
    {
        return cuts.get();
    }

    private int nextBudget()
    {
        return meanBytesBetweenCuts / 2 + random.nextInt(meanBytesBetweenCuts);
    }

    private void acceptLoop()
    {
        while (running)
        {
            try
            {
                final Socket client = server.accept();
                final Socket target = new Socket();
                target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                client.setTcpNoDelay(true);
                target.setTcpNoDelay(true);
                start(client, target, true);
                start(target, client, false);
            }
            catch (final IOException ex)
            {
                if (running)
                {
                    System.err.println("chopping proxy: " + ex);
                }
            }
        }
    }

    private void start(final Socket from, final Socket to, final boolean towardsAcceptor)
    {
        final Thread pump = new Thread(() -> pump(from, to, towardsAcceptor), "chopping-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private void pump(final Socket from, final Socket to, final boolean towardsAcceptor)
    {
        final byte[] buffer = new byte[8192];
        try
        {
            final InputStream in = from.getInputStream();
            final OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) > 0)
            {
                final boolean myTurn = (cuts.get() % 2 == 0) == towardsAcceptor;
                if (cuts.get() < maxCuts && myTurn && (bytesUntilCut -= n) <= 0)
                {
                    final int cutAt = middleOfAMessage(buffer, n);
                    if (cutAt > 0)
                    {
                        out.write(buffer, 0, cutAt);
                        out.flush();
                        cuts.incrementAndGet();
                        bytesUntilCut = nextBudget();
                        reset(from);
                        to.close(); // a FIN after the half message, so the receiver surely reads the half
                        return;
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        }
        catch (final IOException ex)
        {
            // the other direction was cut, or an engine closed: end this side too
        }
        reset(from);
        reset(to);
    }

    /** Just after the first "35=" of the chunk, or -1 when the chunk holds none. */
    private static int middleOfAMessage(final byte[] buffer, final int length)
    {
        final String chunk = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
        final int msgType = chunk.indexOf("\u000135=");
        return msgType < 0 ? -1 : msgType + 4;
    }

    private static void reset(final Socket socket)
    {
        try
        {
            socket.setSoLinger(true, 0);
            socket.close();
        }
        catch (final IOException ignored)
        {
            // already gone
        }
    }

    @Override
    public void close()
    {
        running = false;
        try
        {
            server.close();
        }
        catch (final IOException ignored)
        {
            // shutting down
        }
    }
}
