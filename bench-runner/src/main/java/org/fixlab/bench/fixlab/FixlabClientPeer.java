package org.fixlab.bench.fixlab;

import java.nio.charset.StandardCharsets;

import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.transport.CpuPinning;

/**
 * fixlab as the client: one initiator session (two for conversion: FIX 4.2 out, FIX 4.4 in), polled
 * from the benchmark thread. t3 is the transport's read time of the reply, t4 the callback.
 */
public final class FixlabClientPeer implements ClientPeer, MessageHandler
{
    private static final byte[] TRANSACT_TIME = Orders.TRANSACT_TIME.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SMALL_TRANSACT_TIME = Orders.SMALL_TRANSACT_TIME.getBytes(StandardCharsets.US_ASCII);

    private final FixEngine engine;
    private final Scenario scenario;
    private final Replies replies;
    private final MessageEncoder order = new MessageEncoder();
    private final CpuPinning pinning;
    private final Application application;
    private Session out;
    private Session in;

    public FixlabClientPeer(final EngineConfiguration configuration, final Scenario scenario, final Replies replies)
    {
        this.engine = FixlabSupport.engine(configuration);
        this.scenario = scenario;
        this.replies = replies;
        this.pinning = FixlabSupport.pin(configuration);
        this.application = EngineApi.application(this);
    }

    @Override
    public void connect(final String host, final int port, final long deadlineNanos)
    {
        if (scenario == Scenario.CONVERSION)
        {
            out = engine.addInitiatorSession(new SessionId(FixVersion.FIX42, Orders.CLIENT, Orders.SERVER), host, port, application,
                s -> s.sendResetSeqNumFlag(true).resetOnLogon(true));
            in = engine.addInitiatorSession(new SessionId(FixVersion.FIX44, Orders.CLIENT_OUT, Orders.SERVER_OUT), host, port, application,
                s -> s.sendResetSeqNumFlag(true).resetOnLogon(true));
        }
        else
        {
            out = engine.addInitiatorSession(new SessionId(FixVersion.FIX42, Orders.CLIENT, Orders.SERVER), host, port, application,
                s -> s.sendResetSeqNumFlag(true).resetOnLogon(true));
            in = out;
        }
        while (!(out.isLoggedOn() && in.isLoggedOn()))
        {
            engine.poll();
            if (System.nanoTime() > deadlineNanos)
            {
                throw new BenchException("no FIX logon with the server at " + host + ":" + port + " ("
                    + (out.disconnectReason() == null ? "no answer" : out.disconnectReason()) + ")");
            }
        }
    }

    @Override
    public boolean send(final int seq, final boolean small)
    {
        final long result = out.trySend(order(seq, small));
        if (result == SendResult.BACK_PRESSURED)
        {
            return false;
        }
        if (result < 0)
        {
            throw new BenchException("fixlab could not send order " + seq + ": " + SendResult.describe(result));
        }
        return true;
    }

    /** The order {@link #send} hands to the engine: the fields of {@link Orders#orderBody}, in its order. */
    MessageEncoder order(final int seq, final boolean small)
    {
        order.reset('D').append(11, seq);
        if (small)
        {
            order.append(21, '1').append(55, "X").append(54, '1').append(60, SMALL_TRANSACT_TIME).append(40, '1');
        }
        else
        {
            order.append(21, '1').append(109, Orders.CLIENT_ID).append(55, Orders.SYMBOL).append(54, '1')
                .append(60, TRANSACT_TIME).append(38, 100).append(40, '2').appendDecimal(44, 11_234, 4);
            if (scenario == Scenario.CONVERSION)
            {
                order.append(Orders.RULE80A, 'A');
            }
        }
        return order;
    }

    @Override
    public int poll()
    {
        return engine.poll();
    }

    @Override
    public long lastWriteNanos()
    {
        return out.transport() == null ? 0 : out.transport().writeNanos();
    }

    @Override
    public String timestampMethod()
    {
        return "fixlab: t1 System.nanoTime() before Session.trySend, t2 SessionTransport.writeNanos() (just before the "
            + "socket write), t3 SessionTransport.readNanos() (socket read of the bytes), t4 System.nanoTime() in onAppMessage";
    }

    @Override
    public String tlsSession()
    {
        return EngineApi.tlsSession(out);
    }

    @Override
    public String threadPlacement()
    {
        return pinning.description();
    }

    @Override
    public boolean onAppMessage(final Session session, final MessageDecoder message)
    {
        final long t4 = System.nanoTime();
        if (session == in)
        {
            replies.record(session.transport().readNanos(), t4);
        }
        return true;
    }

    @Override
    public void close()
    {
        engine.close();
        pinning.close();
    }
}
