package org.fixlab.bench.raw;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.LinkedHashMap;
import java.util.Map;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;

/**
 * The raw-socket client: preformatted order bytes into an outbound buffer, written on
 * {@link #poll()} (so a stream is batched like the engines batch), replies framed by "10=".
 */
public final class RawClientPeer implements ClientPeer
{
    private final Scenario scenario;
    private final Replies replies;
    private final byte[] order;
    private final byte[] smallOrder;
    private final ByteBuffer outbound = ByteBuffer.allocateDirect(256 * 1024);
    private SocketChannel out;
    private SocketChannel in;
    private Framing framing;
    private long writeNanos;

    public RawClientPeer(final Scenario scenario, final Replies replies)
    {
        this.scenario = scenario;
        this.replies = replies;
        order = Orders.frame(Orders.FIX42, "D", Orders.CLIENT, Orders.SERVER, Orders.orderBody(1, scenario == Scenario.CONVERSION));
        smallOrder = Orders.frame(Orders.FIX42, "D", Orders.CLIENT, Orders.SERVER, Orders.smallOrderBody(1));
    }

    @Override
    public void connect(final String host, final int port, final long deadlineNanos)
    {
        out = open(host, port, deadlineNanos);
        in = scenario == Scenario.CONVERSION ? open(host, port, deadlineNanos) : out;
        framing = new Framing(in);
    }

    private static SocketChannel open(final String host, final int port, final long deadlineNanos)
    {
        while (true)
        {
            try
            {
                final SocketChannel channel = SocketChannel.open(new InetSocketAddress(host, port));
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(false);
                return channel;
            }
            catch (final IOException ex)
            {
                if (System.nanoTime() > deadlineNanos)
                {
                    throw new BenchException("server unreachable at " + host + ":" + port + " (" + ex.getMessage() + ")");
                }
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public boolean send(final int seq, final boolean small)
    {
        final byte[] bytes = small ? smallOrder : order;
        if (outbound.remaining() < bytes.length)
        {
            flush();
            if (outbound.remaining() < bytes.length)
            {
                return false;
            }
        }
        outbound.put(bytes);
        return true;
    }

    private int flush()
    {
        if (outbound.position() == 0)
        {
            return 0;
        }
        outbound.flip();
        try
        {
            writeNanos = System.nanoTime();
            final int n = out.write(outbound);
            outbound.compact();
            return n;
        }
        catch (final IOException ex)
        {
            throw new BenchException("raw-socket: write failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public int poll()
    {
        int work = flush();
        if (framing.closed())
        {
            throw new BenchException("raw-socket: the server closed the connection");
        }
        if (framing.read() > 0)
        {
            while (framing.nextMessage())
            {
                replies.record(framing.readNanos(), System.nanoTime());
                work++;
            }
        }
        return work;
    }

    @Override
    public long lastWriteNanos()
    {
        return writeNanos;
    }

    @Override
    public String timestampMethod()
    {
        return "raw-socket: t1 System.nanoTime() before the bytes are queued, t2 just before SocketChannel.write, "
            + "t3 after the SocketChannel.read that returned the bytes, t4 when the complete message is found";
    }

    static Map<String, Object> buffers(final SocketChannel channel)
    {
        final Map<String, Object> sizes = new LinkedHashMap<>();
        try
        {
            sizes.put("send", channel == null ? 0 : channel.getOption(StandardSocketOptions.SO_SNDBUF));
            sizes.put("receive", channel == null ? 0 : channel.getOption(StandardSocketOptions.SO_RCVBUF));
        }
        catch (final IOException ex)
        {
            sizes.put("send", 0);
            sizes.put("receive", 0);
        }
        return sizes;
    }

    @Override
    public Map<String, Object> socketBuffers()
    {
        return buffers(out);
    }

    @Override
    public void close()
    {
        try
        {
            out.close();
            in.close();
        }
        catch (final IOException | NullPointerException ex)
        {
            // closing at exit
        }
    }
}
