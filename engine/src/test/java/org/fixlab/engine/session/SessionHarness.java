package org.fixlab.engine.session;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.store.MemoryStore;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One session under test, wired to the real {@link MemoryStore}, an in-memory transport and a
 * cached clock that only moves when the test moves it. The session is ISLD talking to TW, as in
 * the conformance scripts; {@link #peer} writes TW's messages.
 */
final class SessionHarness
{
    static final String US = "ISLD";
    static final String THEM = "TW";
    /** A leap day, so that SendingTime encoding and decoding cross an unusual date on every test. */
    static final long START_NANOS = TimeUnit.SECONDS.toNanos(Instant.parse("2024-02-29T12:00:00Z").getEpochSecond());

    final CachedNanoClock clock = new CachedNanoClock();
    final MemoryStore store;
    final RecordingApplication application = new RecordingApplication();
    final Counterparty peer;
    final Session session;
    RecordingTransport transport;

    SessionHarness(final SessionRole role, final SessionSettings settings)
    {
        this(role, settings, new MemoryStore(1 << 20));
    }

    SessionHarness(final SessionRole role, final SessionSettings settings, final MemoryStore store)
    {
        this.store = store;
        clock.update(START_NANOS);
        peer = new Counterparty(FixVersion.FIX44, THEM, US, clock);
        session = new Session(new SessionId(FixVersion.FIX44, US, THEM), role, settings, store, application, clock::nanoTime,
            SessionLog.SILENT, 64);
    }

    static SessionHarness acceptor()
    {
        return new SessionHarness(SessionRole.ACCEPTOR, new SessionSettings());
    }

    /** An acceptor that has exchanged Logon (MsgSeqNum 1 both ways) and forgotten the messages so far. */
    static SessionHarness loggedOnAcceptor(final int heartBtInt)
    {
        return loggedOnAcceptor(heartBtInt, new SessionSettings());
    }

    static SessionHarness loggedOnAcceptor(final int heartBtInt, final SessionSettings settings)
    {
        final SessionHarness harness = new SessionHarness(SessionRole.ACCEPTOR, settings);
        harness.connect();
        harness.receive(harness.peer.logon(1, heartBtInt));
        assertEquals(SessionState.ACTIVE, harness.session.state());
        harness.sent();
        return harness;
    }

    /** A store that has been used before: the next session over it continues from these numbers. */
    static MemoryStore storeAt(final int nextSenderSeqNum, final int nextTargetSeqNum)
    {
        final MemoryStore store = new MemoryStore(1 << 20);
        store.nextSenderSeqNum(nextSenderSeqNum);
        store.nextTargetSeqNum(nextTargetSeqNum);
        return store;
    }

    void connect()
    {
        transport = new RecordingTransport();
        session.onConnect(transport, clock.nanoTime());
    }

    /** Delivers the message once; returns false when the session did not consume it (to be delivered again). */
    boolean receive(final Counterparty.Message message)
    {
        return receive(message.frame());
    }

    boolean receive(final String framed)
    {
        final UnsafeBuffer buffer = FixFrame.buffer(framed);
        return session.onMessage(buffer, 0, buffer.capacity(), clock.nanoTime());
    }

    /** Heartbeats from the peer with these MsgSeqNums, to move the expected number along. */
    void receiveHeartbeats(final int fromSeqNum, final int toSeqNum)
    {
        for (int seqNum = fromSeqNum; seqNum <= toSeqNum; seqNum++)
        {
            receive(peer.heartbeat(seqNum));
        }
    }

    /** What the session wrote since the last call. */
    List<FixFrame> sent()
    {
        return transport.takeMessages();
    }

    /** The one message the session wrote since the last call; fails if it wrote none or more. */
    FixFrame sentOne()
    {
        final List<FixFrame> sent = sent();
        assertEquals(1, sent.size(), () -> "expected one message, got " + sent);
        return sent.get(0);
    }

    /** Moves the clock and runs one duty cycle, as the engine's event loop would. */
    int advanceMillis(final long millis)
    {
        clock.advance(TimeUnit.MILLISECONDS.toNanos(millis));
        return session.doWork(clock.nanoTime());
    }

    int advanceSeconds(final double seconds)
    {
        return advanceMillis((long)(seconds * 1000));
    }

    void assertDisconnected()
    {
        assertEquals(SessionState.DISCONNECTED, session.state());
        assertEquals(false, transport.isOpen(), "the transport was told to disconnect");
    }
}
