package org.fixlab.bench.quickfixj;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;

import quickfix.ApplicationAdapter;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;

/**
 * QuickFIX/J as the client, ported from the same benchmark code (seed 000's RoundTripTester): one
 * work message reused for every send, replies timed in fromApp on QuickFIX/J's own thread.
 */
public final class QfjClientPeer extends ApplicationAdapter implements ClientPeer
{
    private final QuickfixjProduct.Config config;
    private final Scenario scenario;
    private final Replies replies;
    private final QfjSupport.TimestampFilter filter = new QfjSupport.TimestampFilter();
    private final SessionID outId = new SessionID(Orders.FIX42, Orders.CLIENT, Orders.SERVER);
    private final SessionID inId;
    private final Message order = new Message();
    private final Message smallOrder = new Message();
    private SocketInitiator initiator;
    private Session out;

    public QfjClientPeer(final QuickfixjProduct.Config config, final Scenario scenario, final Replies replies)
    {
        this.config = config;
        this.scenario = scenario;
        this.replies = replies;
        this.inId = scenario == Scenario.CONVERSION ? new SessionID(Orders.FIX44, Orders.CLIENT_OUT, Orders.SERVER_OUT) : outId;
        order.getHeader().setString(MsgType.FIELD, "D");
        order.setString(21, "1");
        order.setString(109, Orders.CLIENT_ID);
        order.setString(55, Orders.SYMBOL);
        order.setString(54, "1");
        order.setString(60, Orders.TRANSACT_TIME);
        order.setString(38, Orders.QTY);
        order.setString(40, "2");
        order.setString(44, Orders.PRICE);
        if (scenario == Scenario.CONVERSION)
        {
            order.setString(Orders.RULE80A, "A");
        }
        smallOrder.getHeader().setString(MsgType.FIELD, "D");
        smallOrder.setString(21, "1");
        smallOrder.setString(55, "X");
        smallOrder.setString(54, "1");
        smallOrder.setString(60, Orders.SMALL_TRANSACT_TIME);
        smallOrder.setString(40, "1");
    }

    @Override
    public void connect(final String host, final int port, final long deadlineNanos)
    {
        final SessionID[] ids = scenario == Scenario.CONVERSION ? new SessionID[] {outId, inId} : new SessionID[] {outId};
        final SessionSettings settings = QfjSupport.settings(config, true, host, port, ids);
        try
        {
            initiator = new SocketInitiator(this, QfjSupport.store(config, settings), settings, QfjSupport.silentLog(),
                QfjSupport.messages());
            initiator.setIoFilterChainBuilder(chain -> chain.addFirst("fixlab-bench-timestamps", filter));
            initiator.start();
        }
        catch (final quickfix.ConfigError ex)
        {
            throw new BenchException("QuickFIX/J initiator: " + ex.getMessage(), ex);
        }
        while (!(loggedOn(outId) && loggedOn(inId)))
        {
            if (System.nanoTime() > deadlineNanos)
            {
                throw new BenchException("no FIX logon with the server at " + host + ":" + port + " (QuickFIX/J initiator)");
            }
            sleepMillis(1);
        }
        out = Session.lookupSession(outId);
    }

    private static boolean loggedOn(final SessionID id)
    {
        final Session session = Session.lookupSession(id);
        return session != null && session.isLoggedOn();
    }

    static void sleepMillis(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Bytes QuickFIX/J may have queued for the socket before the stream waits: its Session.send never refuses,
     * MINA queues every message it cannot write yet, and a stream that outruns the server grew that queue until
     * the client's heap ran out (two of three runs of the 0.2.0 campaign). The engines' outbound buffers are of
     * this order (fixlab optimized: 1 MiB).
     */
    static final long MAX_QUEUED_BYTES = 1 << 20;

    @Override
    public boolean send(final int seq, final boolean small)
    {
        final org.apache.mina.core.session.IoSession connection = filter.session;
        if (connection != null && connection.getScheduledWriteBytes() > MAX_QUEUED_BYTES)
        {
            // back-pressure: the driver polls and tries again; MINA's I/O thread drains the queue, so give it the CPU
            Thread.yield();
            return false;
        }
        if (!out.send(order(seq, small)))
        {
            throw new BenchException("QuickFIX/J refused to send order " + seq + " (session not logged on)");
        }
        return true;
    }

    /** The order {@link #send} hands to QuickFIX/J: the fields of {@link Orders#orderBody}. */
    Message order(final int seq, final boolean small)
    {
        final Message message = small ? smallOrder : order;
        message.setInt(11, seq);
        return message;
    }

    /** The filter that sees the connection's writes (tests give it a connection). */
    QfjSupport.TimestampFilter filter()
    {
        return filter;
    }

    @Override
    public int poll()
    {
        return 0;
    }

    @Override
    public long lastWriteNanos()
    {
        return filter.writeNanos;
    }

    @Override
    public String timestampMethod()
    {
        return QfjSupport.METHOD;
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId)
    {
        final long t4 = System.nanoTime();
        if (sessionId.equals(inId))
        {
            replies.record(filter.readNanos, t4);
        }
    }

    @Override
    public void close()
    {
        if (initiator != null)
        {
            initiator.stop(true);
        }
    }
}
