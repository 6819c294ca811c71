package org.fixlab.bench.raw;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;

/**
 * The physical limit: the same bytes as the FIX products over a plain non-blocking socket with no
 * FIX logic. Each complete order is answered with a preformatted ExecutionReport (echo), counted
 * (stream), or forwarded as a preformatted FIX 4.4 order on the second connection (conversion).
 */
public final class RawServerPeer implements ServerPeer
{
    private final Scenario scenario;
    private final ServerRecorder recorder;
    private final ByteBuffer answer;
    private ServerSocketChannel server;
    private SocketChannel in;
    private SocketChannel out;
    private Framing framing;

    public RawServerPeer(final Scenario scenario, final ServerRecorder recorder)
    {
        this.scenario = scenario;
        this.recorder = recorder;
        final byte[] bytes = scenario == Scenario.CONVERSION
            ? Orders.frame(Orders.FIX44, "D", Orders.SERVER_OUT, Orders.CLIENT_OUT, Orders.convertedBody(1))
            : Orders.frame(Orders.FIX42, "8", Orders.SERVER, Orders.CLIENT, Orders.reportBody(1));
        answer = ByteBuffer.allocateDirect(bytes.length).put(bytes);
    }

    @Override
    public void listen(final String bind, final int port)
    {
        try
        {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(bind, port));
            server.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot listen on " + bind + ":" + port + " (" + ex.getMessage() + "; port in use?)", ex);
        }
    }

    @Override
    public int poll()
    {
        if (in == null || (scenario == Scenario.CONVERSION && out == null))
        {
            accept();
            return 0;
        }
        if (framing.read() == 0)
        {
            if (framing.closed() && !recorder.complete())
            {
                throw new BenchException("raw-socket: the client closed the connection after " + recorder.requests() + " orders");
            }
            return 0;
        }
        int work = 0;
        while (framing.nextMessage())
        {
            work++;
            final int i = recorder.onRequest(framing.readNanos(), recorder.callbackNanos());
            if (scenario.serverMode() != Scenario.ServerMode.COUNT)
            {
                final long t = System.nanoTime();
                recorder.onAnswer(i, t);
                recorder.onAnswerWritten(i, t);
                answer.clear();
                Framing.writeFully(out, answer);
            }
        }
        return work;
    }

    private void accept()
    {
        try
        {
            final SocketChannel channel = server.accept();
            if (channel == null)
            {
                return;
            }
            RawClientPeer.configure(channel);
            // conversion: the client opens the inbound (FIX 4.2) connection first, then the outbound one
            if (in == null)
            {
                in = channel;
                framing = new Framing(channel);
                out = scenario == Scenario.CONVERSION ? null : channel;
            }
            else
            {
                out = channel;
            }
        }
        catch (final IOException ex)
        {
            throw new BenchException("raw-socket: accept failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public boolean answersOnThisThread()
    {
        return true;
    }

    @Override
    public String threadPlacement()
    {
        return "unpinned";
    }

    @Override
    public Map<String, Object> socketBuffers()
    {
        return RawClientPeer.buffers(in);
    }

    @Override
    public void close()
    {
        try
        {
            for (final java.io.Closeable c : new java.io.Closeable[] {in, out, server})
            {
                if (c != null)
                {
                    c.close();
                }
            }
        }
        catch (final IOException ex)
        {
            // closing at exit: nothing to do about it
        }
    }
}
