package org.fixlab.engine;

import java.util.concurrent.TimeUnit;

import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;

/**
 * NewOrderSingles answered by ExecutionReports between two engines that the calling thread polls in turn, one round
 * trip at a time: the load of the allocation tests, in which every byte the thread allocates is the engines' (both
 * run on it) or this class's, which allocates nothing once its encoders have grown.
 */
public final class OrderRoundTrips
{
    private static final int CL_ORD_ID = 11;

    private final FixEngine initiator;
    private final FixEngine acceptor;
    private final MessageEncoder order = new MessageEncoder();
    private final MessageEncoder report = new MessageEncoder();
    private long execId;
    private int reports;
    private int orderLength;
    private int reportLength;
    private Session session;

    public OrderRoundTrips(final FixEngine initiator, final FixEngine acceptor)
    {
        this.initiator = initiator;
        this.acceptor = acceptor;
    }

    /**
     * Adds the acceptor's session (an ExecutionReport for each order, with its ClOrdID) and the initiator's (counting
     * the reports), FIX 4.4, connects the initiator to {@code host} on a port the acceptor chose, and polls both
     * engines until it has logged on or {@code seconds} have passed: the initiator's session, logged on or not.
     */
    public Session connect(final String host, final int seconds)
    {
        acceptor.addAcceptorSession(new SessionId(FixVersion.FIX44, "EXEC", "CLIENT"), this::answer);
        final int port = acceptor.listen("127.0.0.1", 0);
        session = initiator.addInitiatorSession(new SessionId(FixVersion.FIX44, "CLIENT", "EXEC"), host, port,
            new Application()
            {
                @Override
                public Action onAppMessage(final Session session, final MessageDecoder message)
                {
                    reportLength = message.length();
                    reports++;
                    return Action.CONTINUE;
                }
            });
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!session.isLoggedOn() && System.nanoTime() < deadline)
        {
            pollBoth();
        }
        return session;
    }

    /** {@code count} orders, each sent once the report of the one before has arrived. */
    public void run(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int expected = reports + 1;
            order.reset('D').append(CL_ORD_ID, i).append(21, '1').append(55, "EUR/USD").append(54, '1')
                .appendTimestamp(60, System.currentTimeMillis() * 1_000_000L, TimestampPrecision.MILLIS)
                .appendDecimal(38, 100, 0).append(40, '2').appendDecimal(44, 11_234, 4);
            while (session.trySend(order) < 0)
            {
                pollBoth();
            }
            while (reports < expected)
            {
                pollBoth();
            }
        }
    }

    /** The length of the last order as the acceptor received it, the whole message. */
    public int orderLength()
    {
        return orderLength;
    }

    /** The length of the last ExecutionReport as the initiator received it, the whole message. */
    public int reportLength()
    {
        return reportLength;
    }

    private Action answer(final Session acceptorSession, final MessageDecoder newOrder)
    {
        orderLength = newOrder.length();
        final int clOrdId = newOrder.indexOf(CL_ORD_ID);
        report.reset('8').append(37, ++execId)
            .append(CL_ORD_ID, newOrder.buffer(), newOrder.valueOffset(clOrdId), newOrder.valueLength(clOrdId))
            .append(17, execId).append(150, '0').append(39, '0').append(55, "EUR/USD").append(54, '1')
            .appendDecimal(151, 100, 0).appendDecimal(14, 0, 0).appendDecimal(6, 0, 0);
        acceptorSession.trySend(report);
        return Action.CONTINUE;
    }

    private void pollBoth()
    {
        initiator.poll();
        acceptor.poll();
    }
}
