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
    /**
     * Send and receive buffer of the baseline's sockets, as fixlab's optimized preset sets them. Left to the
     * kernel's autotuning (a receive buffer that starts at 64 KiB and grows during the run), the one-way stream
     * of 1,000,000 orders ranged from 4.2 to 8.7M msg/s between runs on a 2-core VM, 8 runs of 18 below 6M;
     * with fixed buffers 1 of 12, the others at 6.9 to 8.5M. Pinning the two processes to one core each did
     * not steady it (4.1 to 9.6M).
     */
    static final int SOCKET_BUFFER_BYTES = 1 << 20;

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
                configure(channel);
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

    /**
     * Non-blocking, TCP_NODELAY and fixed socket buffers of {@link #SOCKET_BUFFER_BYTES}, on both ends of every
     * connection the baseline makes.
     */
    static void configure(final SocketChannel channel) throws IOException
    {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
        channel.configureBlocking(false);
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
