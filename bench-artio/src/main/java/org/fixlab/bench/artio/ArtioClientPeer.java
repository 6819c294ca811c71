package org.fixlab.bench.artio;

import static io.aeron.logbuffer.ControlledFragmentHandler.Action.CONTINUE;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import org.agrona.DirectBuffer;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.Orders;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.artio.fix42.decoder.ExecutionReportDecoder;
import uk.co.real_logic.artio.Pressure;
import uk.co.real_logic.artio.Reply;
import uk.co.real_logic.artio.library.FixLibrary;
import uk.co.real_logic.artio.library.OnMessageInfo;
import uk.co.real_logic.artio.library.SessionAcquiredInfo;
import uk.co.real_logic.artio.library.SessionConfiguration;
import uk.co.real_logic.artio.library.SessionHandler;
import uk.co.real_logic.artio.session.Session;

/**
 * The client role on Artio: an initiator session (two in the conversion scenario: FIX 4.2 out, FIX 4.4
 * back) logged on through Artio's own session layer, orders sent with Session.trySend and its
 * generated encoder, replies taken in the library's onMessage on the benchmark thread.
 */
final class ArtioClientPeer extends ArtioSessionHandler implements ClientPeer
{
    static final String METHOD = "artio: t1 System.nanoTime() before Session.trySend; t3 the receive timestamp Artio's framer takes "
        + "when it reads the message from the socket (its EpochNanoClock set to System.nanoTime()), passed to onMessage; t4 "
        + "System.nanoTime() in SessionHandler.onMessage on the thread polling the library. No t2: Artio writes to the socket "
        + "on its framer thread and gives the application no hook there, so internal-send and internal-receive-send are not played.";

    private final ArtioSettings settings;
    private final Scenario scenario;
    private final Replies replies;
    private final ArtioMessages messages = new ArtioMessages();
    private ArtioNode node;
    private Session orders;
    private Session routed;

    ArtioClientPeer(final ArtioSettings settings, final Scenario scenario, final Replies replies)
    {
        this.settings = settings;
        this.scenario = scenario;
        this.replies = replies;
    }

    @Override
    public void connect(final String host, final int port, final long deadlineNanos)
    {
        node = new ArtioNode(settings, null, 0, this::onSessionAcquired, settings.libraryIdle());
        orders = initiate(host, port, Orders.CLIENT, Orders.SERVER, org.fixlab.bench.artio.fix42.FixDictionaryImpl.class, deadlineNanos);
        if (scenario == Scenario.CONVERSION)
        {
            routed = initiate(host, port, Orders.CLIENT_OUT, Orders.SERVER_OUT, org.fixlab.bench.artio.fix44.FixDictionaryImpl.class,
                deadlineNanos);
        }
    }

    private Session initiate(final String host, final int port, final String sender, final String target,
        final Class<? extends uk.co.real_logic.artio.dictionary.FixDictionary> dictionary, final long deadlineNanos)
    {
        final SessionConfiguration config = SessionConfiguration.builder()
            .address(host, port)
            .senderCompId(sender)
            .targetCompId(target)
            .fixDictionary(dictionary)
            .resetSeqNum(true)
            .build();
        final FixLibrary library = node.library;
        final Reply<Session> reply = library.initiate(config);
        while (reply.isExecuting())
        {
            library.poll(10);
            if (System.nanoTime() > deadlineNanos)
            {
                throw new BenchException("artio: no logon from " + host + ":" + port + " in time");
            }
        }
        if (!reply.hasCompleted())
        {
            throw new BenchException("artio: cannot log on to " + host + ":" + port + " as " + sender + " (" + reply.state()
                + (reply.error() != null ? ": " + reply.error().getMessage() : "") + ")");
        }
        final Session session = reply.resultIfPresent();
        while (!session.isActive())
        {
            library.poll(10);
            if (System.nanoTime() > deadlineNanos)
            {
                throw new BenchException("artio: the session to " + host + ":" + port + " did not become active");
            }
        }
        return session;
    }

    private SessionHandler onSessionAcquired(final Session session, final SessionAcquiredInfo info)
    {
        return this;
    }

    /**
     * The library is polled at least every this many orders, even while trySend succeeds (the benchmark's stream polls
     * only when a send is refused): a disconnect Artio's engine decides on reaches the application through poll, and
     * until then trySend keeps accepting orders for a session that is gone. In campaign i12-s40 two stream runs failed
     * with their servers seeing the connection close after 0.5 and 2.2 million orders while their clients went on
     * sending, past 3.4 and 3.5 million: the clients never read their own reason. Polled, the client stops at the
     * disconnect and says why. (A library Artio's engine has not heard from for replyTimeoutInMs is dropped too; that
     * is not what ended those runs: with the timeout cut to 1 s and no such poll, 3 of 3 stream runs completed.)
     */
    static final int POLL_EVERY_ORDERS = 64;

    @Override
    public boolean send(final int seq, final boolean small)
    {
        if (seq % POLL_EVERY_ORDERS == 0)
        {
            poll();
        }
        if (orders.isSlowConsumer())
        {
            // Artio's engine holds bytes TCP has not taken yet: back-pressure, as a full outbound buffer is for every
            // other product. trySend would go on accepting, and the engine ends the session (SLOW_CONSUMER) once it
            // holds senderMaxBytesInBuffer: a stream's receiver is slower than its sender by design, and 4 of 14
            // stream runs here ended so at Artio's default 4 MiB. This check alone did not keep the session (what the
            // library had published before it heard still came), nor did a larger buffer alone; both together did
            // (ArtioSlowReceiverTest, and 10 of 10 stream runs).
            return false;
        }
        final long result = orders.trySend(messages.order(seq, small, scenario == Scenario.CONVERSION));
        if (result >= 0)
        {
            return true;
        }
        if (Pressure.isBackPressured(result))
        {
            return false;
        }
        throw new BenchException("artio: Session.trySend of order " + seq + " failed (" + result + ")");
    }

    @Override
    public int poll()
    {
        final int work = node.library.poll(10);
        failIfDisconnected("while the client was sending or waiting for answers");
        return work;
    }

    @Override
    public Action onMessage(final DirectBuffer buffer, final int offset, final int length, final int libraryId, final Session session,
        final int sequenceIndex, final long messageType, final long timestampInNs, final long position, final OnMessageInfo info)
    {
        final boolean reply = scenario == Scenario.CONVERSION
            ? session == routed && messageType == org.fixlab.bench.artio.fix44.decoder.NewOrderSingleDecoder.MESSAGE_TYPE
            : messageType == ExecutionReportDecoder.MESSAGE_TYPE;
        if (reply)
        {
            replies.record(timestampInNs, System.nanoTime());
        }
        return CONTINUE;
    }

    @Override
    public long lastWriteNanos()
    {
        return 0;
    }

    @Override
    public String timestampMethod()
    {
        return METHOD;
    }

    @Override
    public String threadPlacement()
    {
        return THREADS;
    }

    @Override
    public void close()
    {
        if (node == null)
        {
            return;
        }
        for (final Session session : new Session[] {orders, routed})
        {
            if (session != null && session.isConnected())
            {
                session.logoutAndDisconnect();
            }
        }
        final long until = System.nanoTime() + 500_000_000L;
        while (System.nanoTime() < until && ((orders != null && orders.isConnected()) || (routed != null && routed.isConnected())))
        {
            node.library.poll(10);
        }
        node.close();
    }
}
