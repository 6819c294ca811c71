package org.fixlab.bench.quickfixj;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;

import quickfix.ApplicationAdapter;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketAcceptor;
import quickfix.field.MsgType;

/**
 * QuickFIX/J as the server, ported from seed 000's RoundTripServer: copies ClientID, Price, OrderQty
 * and TransactTime into one reused ExecutionReport with fresh ExecID/OrderID and sendToTarget; counts
 * the stream; or routes FIX 4.2 orders to the FIX 4.4 session. Callbacks run on QuickFIX/J's thread.
 */
public final class QfjServerPeer extends ApplicationAdapter implements ServerPeer
{
    private final QuickfixjProduct.Config config;
    private final Scenario scenario;
    private final ServerRecorder recorder;
    private final QfjSupport.TimestampFilter filter = new QfjSupport.TimestampFilter();
    private final SessionID inId = new SessionID(Orders.FIX42, Orders.SERVER, Orders.CLIENT);
    private final SessionID outId;
    private final Message report = new Message();
    private final Message routed = new Message();
    private SocketAcceptor acceptor;
    private int execId;
    private volatile String failure;

    public QfjServerPeer(final QuickfixjProduct.Config config, final Scenario scenario, final ServerRecorder recorder)
    {
        this.config = config;
        this.scenario = scenario;
        this.recorder = recorder;
        this.outId = scenario == Scenario.CONVERSION ? new SessionID(Orders.FIX44, Orders.SERVER_OUT, Orders.CLIENT_OUT) : inId;
        report.getHeader().setString(MsgType.FIELD, "8");
        report.setString(20, "0");
        report.setString(150, "0");
        report.setString(39, "0");
        report.setString(151, Orders.QTY);
        report.setString(14, "0");
        report.setString(6, "0");
        routed.getHeader().setString(MsgType.FIELD, "D");
    }

    @Override
    public void listen(final String bind, final int port)
    {
        final SessionID[] ids = scenario == Scenario.CONVERSION ? new SessionID[] {inId, outId} : new SessionID[] {inId};
        final SessionSettings settings = QfjSupport.settings(config, false, bind, port, ids);
        try
        {
            acceptor = new SocketAcceptor(this, QfjSupport.store(config, settings), settings, QfjSupport.silentLog(),
                QfjSupport.messages());
            acceptor.setIoFilterChainBuilder(chain -> chain.addFirst("fixlab-bench-timestamps", filter));
            acceptor.start();
        }
        catch (final quickfix.ConfigError | RuntimeException ex)
        {
            throw new BenchException("cannot listen on " + bind + ":" + port + " (QuickFIX/J: " + rootMessage(ex) + "; port in use?)", ex);
        }
    }

    private static String rootMessage(final Throwable ex)
    {
        Throwable t = ex;
        while (t.getCause() != null)
        {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    @Override
    public int poll()
    {
        if (failure != null)
        {
            throw new BenchException("QuickFIX/J server: " + failure);
        }
        return 0;
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId)
    {
        final long t4 = recorder.callbackNanos();
        try
        {
            if (!sessionId.equals(inId) || !"D".equals(message.getHeader().getString(MsgType.FIELD)))
            {
                return;
            }
            final int i = recorder.onRequest(filter.readNanos, t4);
            switch (scenario.serverMode())
            {
                case ECHO -> {
                    report.setString(109, message.getString(109));
                    report.setString(44, message.getString(44));
                    report.setString(38, message.getString(38));
                    report.setString(60, message.getString(60));
                    report.setString(11, message.getString(11));
                    report.setString(55, message.getString(55));
                    report.setString(54, message.getString(54));
                    report.setInt(17, ++execId);
                    report.setInt(37, execId);
                    answer(i, report);
                }
                case ROUTE -> {
                    for (final int tag : new int[] {11, 21, 55, 54, 60, 38, 40, 44})
                    {
                        routed.setString(tag, message.getString(tag));
                    }
                    routed.setString(Orders.ORDER_CAPACITY, message.getString(Orders.RULE80A));
                    final quickfix.Group party = new quickfix.Group(453, 448);
                    party.setString(448, message.getString(109));
                    party.setString(447, "D");
                    party.setInt(452, 3);
                    routed.removeGroup(453);
                    routed.addGroup(party);
                    answer(i, routed);
                }
                default -> { }
            }
        }
        catch (final FieldNotFound | SessionNotFound ex)
        {
            failure = "cannot answer an order: " + ex;
        }
    }

    private void answer(final int i, final Message message) throws SessionNotFound
    {
        recorder.onAnswer(i, System.nanoTime());
        Session.sendToTarget(message, outId);
        // the MINA filter chain runs on this thread inside sendToTarget, so t2 is already taken
        recorder.onAnswerWritten(i, filter.writeNanos);
    }

    @Override
    public String threadPlacement()
    {
        return "unpinned (QuickFIX/J threads)";
    }

    @Override
    public void close()
    {
        if (acceptor != null)
        {
            acceptor.stop(true);
        }
    }
}
