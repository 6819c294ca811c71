package org.fixlab.engine.session;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.store.MessageStore;
import org.fixlab.engine.store.MessageStores;
import org.fixlab.engine.store.StoreOptions;
import org.fixlab.engine.store.StoreType;
import org.fixlab.engine.store.SyncPolicy;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sync policy as a running session sees it: the forces a file or mapped store makes, counted
 * through its {@link org.fixlab.engine.store.ForceListener}, while the session's duty cycle runs on
 * the loop's clock. Reopening a store in the same process cannot show a missing force (the page cache
 * answers), so these count them.
 */
class StoreSyncOnDutyCycleTest
{
    private static final long INTERVAL_MS = 100;

    @TempDir
    Path dir;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final AtomicInteger forces = new AtomicInteger();

    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    void intervalPolicyForcesOnTheDutyCycleOncePerIntervalWhileTheSessionRuns(final StoreType type)
    {
        try (MessageStore store = open(type, SyncPolicy.INTERVAL))
        {
            final Session session = loggedOnAcceptor(store);
            final int afterLogon = doWorkAfterMillis(session, 1);
            assertEquals(1, afterLogon, "the logon's writes are forced on the first duty cycle (no force before)");

            for (int i = 0; i < 20; i++)
            {
                session.trySend(new MessageEncoder().reset('D').append(11, "C" + i));
                assertEquals(afterLogon, doWorkAfterMillis(session, 1), "no force within the interval");
            }
            assertEquals(afterLogon + 1, doWorkAfterMillis(session, INTERVAL_MS), "twenty messages, one force");
            assertEquals(afterLogon + 1, doWorkAfterMillis(session, 10 * INTERVAL_MS), "nothing written, nothing forced");

            session.trySend(new MessageEncoder().reset('D').append(11, "late"));
            session.onDisconnect("peer closed the connection");
            assertEquals(afterLogon + 2, doWorkAfterMillis(session, INTERVAL_MS), "a disconnected session still forces what it owes");
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    void everyMessagePolicyForcesEachMessageAndTheDutyCycleAddsNothing(final StoreType type)
    {
        try (MessageStore store = open(type, SyncPolicy.EVERY_MESSAGE))
        {
            final Session session = loggedOnAcceptor(store);
            final int before = forces.get();
            session.trySend(new MessageEncoder().reset('D').append(11, "A"));
            // the message, then the next sender number
            assertEquals(before + 2, forces.get());
            assertEquals(before + 2, doWorkAfterMillis(session, 10 * INTERVAL_MS));
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    void nonePolicyNeverForces(final StoreType type)
    {
        try (MessageStore store = open(type, SyncPolicy.NONE))
        {
            final Session session = loggedOnAcceptor(store);
            session.trySend(new MessageEncoder().reset('D').append(11, "A"));
            assertEquals(0, doWorkAfterMillis(session, 10 * INTERVAL_MS));
        }
    }

    private MessageStore open(final StoreType type, final SyncPolicy policy)
    {
        clock.update(SessionHarness.START_NANOS);
        return MessageStores.open(type, dir, "session", new StoreOptions().syncPolicy(policy)
            .syncIntervalNanos(TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS)).mappedChunkBytes(1 << 16)
            .forceListener(forces::incrementAndGet));
    }

    private Session loggedOnAcceptor(final MessageStore store)
    {
        final Session session = new Session(new SessionId(FixVersion.FIX44, SessionHarness.US, SessionHarness.THEM),
            SessionRole.ACCEPTOR, new SessionSettings(), store, new RecordingApplication(), clock::nanoTime, SessionLog.SILENT, 64);
        session.onConnect(new RecordingTransport(), clock.nanoTime());
        final Counterparty peer = new Counterparty(FixVersion.FIX44, SessionHarness.THEM, SessionHarness.US, clock);
        final UnsafeBuffer logon = FixFrame.buffer(peer.logon(1, 30).frame());
        session.onMessage(logon, 0, logon.capacity(), clock.nanoTime());
        assertEquals(SessionState.ACTIVE, session.state());
        return session;
    }

    /** Moves the clock, runs one duty cycle and returns the forces counted so far. */
    private int doWorkAfterMillis(final Session session, final long millis)
    {
        clock.advance(TimeUnit.MILLISECONDS.toNanos(millis));
        session.doWork(clock.nanoTime());
        return forces.get();
    }
}
