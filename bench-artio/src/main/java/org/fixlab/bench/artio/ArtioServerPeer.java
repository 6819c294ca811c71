package org.fixlab.bench.artio;

import static io.aeron.logbuffer.ControlledFragmentHandler.Action.ABORT;
import static io.aeron.logbuffer.ControlledFragmentHandler.Action.CONTINUE;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import org.agrona.DirectBuffer;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;
import org.fixlab.bench.artio.fix42.decoder.NewOrderSingleDecoder;
import uk.co.real_logic.artio.Pressure;
import uk.co.real_logic.artio.library.OnMessageInfo;
import uk.co.real_logic.artio.library.SessionAcquiredInfo;
import uk.co.real_logic.artio.library.SessionHandler;
import uk.co.real_logic.artio.session.Session;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

/**
 * The server role on Artio: an acceptor engine on the FIX port; the library's sessions are polled on
 * the benchmark thread. Each order is decoded with Artio's FIX 4.2 codec, then answered with an
 * ExecutionReport (echo), counted (stream), or converted to a FIX 4.4 NewOrderSingle on the second
 * session (route); a back-pressured send returns ABORT, so Artio delivers the order again.
 */
final class ArtioServerPeer extends ArtioSessionHandler implements ServerPeer
{
    private final ArtioSettings settings;
    private final Scenario scenario;
    private final ServerRecorder recorder;
    private final MutableAsciiBuffer ascii = new MutableAsciiBuffer();
    private final NewOrderSingleDecoder order = new NewOrderSingleDecoder();
    private final ArtioMessages messages = new ArtioMessages();
    private ArtioNode node;
    private Session outbound;
    /** The index of an order whose answer was back-pressured: Artio delivers it again, it is not a new one. */
    private int pending = -1;

    ArtioServerPeer(final ArtioSettings settings, final Scenario scenario, final ServerRecorder recorder)
    {
        this.settings = settings;
        this.scenario = scenario;
        this.recorder = recorder;
    }

    @Override
    public void listen(final String bind, final int port)
    {
        node = new ArtioNode(settings, bind, port, this::onSessionAcquired, settings.libraryIdle());
    }

    private SessionHandler onSessionAcquired(final Session session, final SessionAcquiredInfo info)
    {
        if (Orders.CLIENT_OUT.equals(session.compositeKey().remoteCompId()))
        {
            outbound = session;
        }
        return this;
    }

    @Override
    public int poll()
    {
        if (node == null)
        {
            return 0;
        }
        final int work = node.library.poll(10);
        // the progress text is built only when there is a disconnect to report: this runs on every poll
        if (disconnected() && !recorder.complete())
        {
            failIfDisconnected("after " + recorder.requests() + " orders");
        }
        return work;
    }

    @Override
    public Action onMessage(final DirectBuffer buffer, final int offset, final int length, final int libraryId, final Session session,
        final int sequenceIndex, final long messageType, final long timestampInNs, final long position, final OnMessageInfo info)
    {
        if (messageType != NewOrderSingleDecoder.MESSAGE_TYPE || session == outbound)
        {
            return CONTINUE;
        }
        final long callback = recorder.callbackNanos();
        ascii.wrap(buffer);
        order.decode(ascii, offset, length);
        final int i = pending >= 0 ? pending : recorder.onRequest(timestampInNs, callback);
        if (scenario.serverMode() == Scenario.ServerMode.COUNT)
        {
            return CONTINUE;
        }
        final long sent = System.nanoTime();
        final long result;
        if (scenario.serverMode() == Scenario.ServerMode.ROUTE)
        {
            if (outbound == null)
            {
                throw new BenchException("artio: an order arrived before the client's FIX 4.4 session logged on");
            }
            result = outbound.trySend(messages.converted(order));
        }
        else
        {
            result = session.trySend(messages.report(order));
        }
        if (Pressure.isBackPressured(result))
        {
            pending = i;
            return ABORT;
        }
        pending = -1;
        recorder.onAnswer(i, sent);
        recorder.onAnswerWritten(i, sent);
        return CONTINUE;
    }

    @Override
    public String threadPlacement()
    {
        return THREADS;
    }

    @Override
    public void close()
    {
        if (node != null)
        {
            node.close();
        }
    }
}
