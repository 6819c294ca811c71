package org.fixlab.bench.fixlab;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.transport.CpuPinning;

/**
 * fixlab as the server: answers each NewOrderSingle with an ExecutionReport as seed 000 does
 * (ClientID, Price, OrderQty, TransactTime copied, fresh ExecID and OrderID), counts the stream,
 * or routes FIX 4.2 orders to the FIX 4.4 session. All on the thread that polls the engine.
 */
public final class FixlabServerPeer implements ServerPeer, MessageHandler
{
    private static final int[] COPIED = {11, 109, 55, 54, 38, 44, 60};
    private static final int[] ROUTED = {11, 21, 55, 54, 60, 38, 40, 44};
    private static final int NONE = Integer.MIN_VALUE;

    private final FixEngine engine;
    private final Scenario scenario;
    private final ServerRecorder recorder;
    private final MessageEncoder answer = new MessageEncoder();
    private final CpuPinning pinning;
    private final Application application;
    private Session in;
    private Session out;
    private int execId;
    private int firstPending = -1;
    private int lastPending = -1;
    private long failed;
    /** Index of the order last aborted for back-pressure, NONE when none waits (-1 is an order beyond the total). */
    private int abortedOrder = NONE;

    public FixlabServerPeer(final EngineConfiguration configuration, final Scenario scenario, final ServerRecorder recorder)
    {
        this.engine = FixlabSupport.engine(configuration);
        this.scenario = scenario;
        this.recorder = recorder;
        this.pinning = FixlabSupport.pin(configuration);
        this.application = EngineApi.application(this);
    }

    @Override
    public void listen(final String bind, final int port)
    {
        if (scenario == Scenario.CONVERSION)
        {
            in = engine.addAcceptorSession(new SessionId(FixVersion.FIX42, Orders.SERVER, Orders.CLIENT), application, s -> s.resetOnLogon(true));
            out = engine.addAcceptorSession(new SessionId(FixVersion.FIX44, Orders.SERVER_OUT, Orders.CLIENT_OUT), application,
                s -> s.resetOnLogon(true));
        }
        else
        {
            in = engine.addAcceptorSession(new SessionId(FixVersion.FIX42, Orders.SERVER, Orders.CLIENT), application, s -> s.resetOnLogon(true));
            out = in;
        }
        FixlabSupport.listen(engine, bind, port);
    }

    @Override
    public int poll()
    {
        final int work = engine.poll();
        if (firstPending >= 0 && out.transport() != null)
        {
            // the answers queued in callbacks went to the socket, in one write, at the end of this duty cycle
            final long t2 = out.transport().writeNanos();
            for (int i = firstPending; i <= lastPending; i++)
            {
                recorder.onAnswerWritten(i, t2);
            }
            firstPending = -1;
        }
        if (failed > 0)
        {
            throw new BenchException("fixlab server: " + failed + " answers could not be sent (not logged on or too large)");
        }
        return work;
    }

    @Override
    public boolean onAppMessage(final Session session, final MessageDecoder message)
    {
        final long t4 = recorder.callbackNanos();
        if (session != in || message.msgTypeChar() != 'D')
        {
            return true;
        }
        // an order aborted for back-pressure comes again: it keeps its index and its first arrival times
        final int i = abortedOrder != NONE ? abortedOrder : recorder.onRequest(session.transport().readNanos(), t4);
        abortedOrder = NONE;
        switch (scenario.serverMode())
        {
            case ECHO -> {
                answer.reset('8').append(37, ++execId).append(17, execId).append(20, '0');
                copy(message, COPIED);
                answer.append(150, '0').append(39, '0').append(151, 100).append(14, 0).append(6, 0);
                return send(i);
            }
            case ROUTE -> {
                answer.reset('D');
                copy(message, ROUTED);
                final int rule = message.indexOf(Orders.RULE80A);
                if (rule >= 0)
                {
                    answer.append(Orders.ORDER_CAPACITY, message.buffer(), message.valueOffset(rule), message.valueLength(rule));
                }
                final int client = message.indexOf(109);
                if (client >= 0)
                {
                    // FIX 4.4 has no ClientID on orders: it becomes a Parties entry with PartyRole 3 (client ID)
                    answer.append(453, 1).append(448, message.buffer(), message.valueOffset(client), message.valueLength(client))
                        .append(447, 'D').append(452, 3);
                }
                return send(i);
            }
            default -> {
                return true;
            }
        }
    }

    private void copy(final MessageDecoder message, final int[] tags)
    {
        for (final int tag : tags)
        {
            final int index = message.indexOf(tag);
            if (index >= 0)
            {
                answer.append(tag, message.buffer(), message.valueOffset(index), message.valueLength(index));
            }
        }
    }

    /**
     * A full outbound buffer refuses the order, which the session delivers again (an engine without redelivery
     * counts it as failed, as its own harness did); other failures are counted.
     */
    private boolean send(final int i)
    {
        recorder.onAnswer(i, System.nanoTime());
        final long result = out.trySend(answer);
        if (result == SendResult.BACK_PRESSURED && EngineApi.redeliversRefusedMessages())
        {
            abortedOrder = i;
            return false;
        }
        if (result < 0)
        {
            failed++;
        }
        if (firstPending < 0)
        {
            firstPending = i;
        }
        lastPending = i;
        return true;
    }

    @Override
    public boolean answersOnThisThread()
    {
        return true;
    }

    @Override
    public String threadPlacement()
    {
        return pinning.description();
    }

    @Override
    public java.util.Map<String, Object> socketBuffers()
    {
        return java.util.Map.of("send", engine.configuration().integer("socketSendBufferSize"), "receive",
            engine.configuration().integer("socketReceiveBufferSize"));
    }

    @Override
    public void close()
    {
        engine.close();
        pinning.close();
    }
}
