package org.fixlab.engine.session;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.store.MessageStore;
import org.fixlab.engine.store.MessageStores;
import org.fixlab.engine.store.StoreOptions;
import org.fixlab.engine.store.StoreType;
import org.fixlab.engine.store.SyncPolicy;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A simulated power loss under the sync policies that promise to survive one. The store's
 * {@link org.fixlab.engine.store.ForceListener} copies the store files into an image after every
 * force: the image is exactly what the device is known to hold, the worst a power loss can leave
 * (a real one may keep more, if the OS wrote pages back on its own). At a random point the live
 * files are abandoned, a new session opens the image, the counterparty logs on again and asks for
 * everything; the session must resend every message it acknowledged as forced, under its original
 * MsgSeqNum and body, never number a new message at or below one, and expect no inbound MsgSeqNum
 * below one it had forced.
 *
 * <p>Acknowledged as forced: under {@code every-message}, every message whose trySend returned;
 * under {@code interval}, what was sent before the last force the duty cycle made.
 */
class PowerLossTest
{
    private static final int ROUNDS = Integer.getInteger("fixlab.powerLosses", 20);
    private static final long INTERVAL_MS = 50;

    @TempDir
    Path dir;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final Random random = new Random();

    /** Set by the force listener: what the image holds. */
    private int forcedSentUpTo;
    private int forcedNextTarget = 1;
    private boolean powerLost;

    @ParameterizedTest
    @CsvSource({"FILE, EVERY_MESSAGE", "FILE, INTERVAL", "MAPPED, EVERY_MESSAGE", "MAPPED, INTERVAL"})
    void nothingAcknowledgedAsForcedIsLost(final StoreType type, final SyncPolicy policy) throws IOException
    {
        int messagesChecked = 0;
        int lostUnforced = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final Path live = Files.createDirectories(dir.resolve(round + "-live"));
            final Path image = Files.createDirectories(dir.resolve(round + "-image"));
            forcedSentUpTo = 0;
            forcedNextTarget = 1;
            powerLost = false;
            clock.update(SessionHarness.START_NANOS);

            final MessageStore[] liveStore = new MessageStore[1];
            final Map<Integer, FixFrame> sentOrders = new HashMap<>();
            final int[] sentUpTo = {0};
            final StoreOptions options = options(policy).forceListener(() ->
            {
                if (!powerLost)
                {
                    copyFiles(live, image);
                    forcedSentUpTo = sentUpTo[0];
                    forcedNextTarget = liveStore[0].nextTargetSeqNum();
                }
            });
            final int peerNext;
            final int acknowledgedSentUpTo;
            final int acknowledgedNextTarget;
            try (MessageStore store = MessageStores.open(type, live, "session", options))
            {
                liveStore[0] = store;
                final Counterparty peer = new Counterparty(FixVersion.FIX44, SessionHarness.THEM, SessionHarness.US, clock);
                final RecordingTransport transport = new RecordingTransport();
                final Session session = newSession(store);
                session.onConnect(transport, clock.nanoTime());
                receive(session, peer.logon(1, 30));
                int peerSeqNum = 2;
                final int messages = 1 + random.nextInt(60);
                for (int i = 0; i < messages; i++)
                {
                    if (random.nextInt(3) == 0)
                    {
                        receive(session, peer.order(peerSeqNum++));
                    }
                    final int seqNum = (int)session.trySend(new MessageEncoder().reset('8').append(11, "R" + round + "-" + i));
                    assertTrue(seqNum > 0);
                    sentUpTo[0] = seqNum;
                    clock.advance(TimeUnit.MILLISECONDS.toNanos(random.nextInt((int)INTERVAL_MS)));
                    session.doWork(clock.nanoTime());
                }
                for (final FixFrame frame : transport.takeMessages())
                {
                    if (frame.msgType().equals("8"))
                    {
                        sentOrders.put(frame.seqNum(), frame);
                    }
                }
                peerNext = peerSeqNum;
                acknowledgedSentUpTo = policy == SyncPolicy.EVERY_MESSAGE ? sentUpTo[0] : forcedSentUpTo;
                acknowledgedNextTarget = policy == SyncPolicy.EVERY_MESSAGE ? peerSeqNum : forcedNextTarget;
                lostUnforced += sentUpTo[0] - acknowledgedSentUpTo;
                powerLost = true; // closing forces the live files, which the image must not see
            }

            try (MessageStore store = MessageStores.open(type, image, "session", options(policy)))
            {
                assertTrue(store.nextSenderSeqNum() > acknowledgedSentUpTo, () -> "after the power loss the next MsgSeqNum is " +
                    store.nextSenderSeqNum() + ", but " + acknowledgedSentUpTo + " was acknowledged as forced");
                assertTrue(store.nextTargetSeqNum() >= acknowledgedNextTarget, () -> "after the power loss the session expects " +
                    store.nextTargetSeqNum() + ", but had forced " + acknowledgedNextTarget);
                final List<FixFrame> resent = logOnAgainAndAskForEverything(store, peerNext);
                final Map<Integer, FixFrame> resentOrders = new HashMap<>();
                for (final FixFrame frame : resent)
                {
                    if (frame.msgType().equals("8"))
                    {
                        assertEquals("Y", frame.value(Fix.POSS_DUP_FLAG), frame::toString);
                        resentOrders.put(frame.seqNum(), frame);
                    }
                }
                for (final Map.Entry<Integer, FixFrame> original : sentOrders.entrySet())
                {
                    if (original.getKey() <= acknowledgedSentUpTo)
                    {
                        final FixFrame again = resentOrders.get(original.getKey());
                        assertTrue(again != null, () -> type + " " + policy + ": message " + original.getKey() +
                            " was acknowledged as forced but not resent after the power loss; resent: " + resentOrders.keySet());
                        assertEquals(original.getValue().body(), again.body(), "the same message under the same MsgSeqNum");
                        messagesChecked++;
                    }
                }
            }
        }
        System.out.printf("power loss test (%s store, %s): %d power losses, %d acknowledged messages resent intact, " +
            "%d sent but not yet forced (allowed to be lost), missing=0%n", type, policy, ROUNDS, messagesChecked, lostUnforced);
        assertTrue(messagesChecked > 0, "no acknowledged message was ever checked");
        if (policy == SyncPolicy.EVERY_MESSAGE)
        {
            assertEquals(0, lostUnforced, "every-message acknowledges every message");
        }
    }

    /** The counterparty logs on with its next MsgSeqNum, fills any gap the session asks about, then asks for 1..infinity. */
    private List<FixFrame> logOnAgainAndAskForEverything(final MessageStore store, final int peerNext)
    {
        final Counterparty peer = new Counterparty(FixVersion.FIX44, SessionHarness.THEM, SessionHarness.US, clock);
        final RecordingTransport transport = new RecordingTransport();
        final Session session = newSession(store);
        session.onConnect(transport, clock.nanoTime());
        final int expected = store.nextTargetSeqNum();
        receive(session, peer.logon(peerNext, 30));
        int peerSeqNum = peerNext + 1;
        if (expected < peerNext)
        {
            receive(session, peer.gapFill(expected, peerSeqNum));
        }
        final List<FixFrame> sent = new ArrayList<>(transport.takeMessages());
        assertEquals(String.valueOf(MsgTypes.LOGON), sent.get(0).msgType());
        receive(session, peer.message(MsgTypes.RESEND_REQUEST, peerSeqNum).field(Fix.BEGIN_SEQ_NO, 1).field(Fix.END_SEQ_NO, 0));
        for (int i = 0; i < 100; i++)
        {
            session.doWork(clock.nanoTime());
        }
        sent.addAll(transport.takeMessages());
        assertEquals(SessionState.ACTIVE, session.state(), () -> "the session did not stay logged on: " + sent);
        return sent;
    }

    private Session newSession(final MessageStore store)
    {
        return new Session(new SessionId(FixVersion.FIX44, SessionHarness.US, SessionHarness.THEM), SessionRole.ACCEPTOR,
            new SessionSettings(), store, new RecordingApplication(), clock::nanoTime, SessionLog.SILENT, 64);
    }

    private void receive(final Session session, final Counterparty.Message message)
    {
        final UnsafeBuffer buffer = FixFrame.buffer(message.frame());
        session.onMessage(buffer, 0, buffer.capacity(), clock.nanoTime());
    }

    private static StoreOptions options(final SyncPolicy policy)
    {
        return new StoreOptions().syncPolicy(policy).syncIntervalNanos(TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS))
            .mappedChunkBytes(1 << 16);
    }

    /** What the device holds after a force: the files as they are now. */
    private static void copyFiles(final Path from, final Path to)
    {
        try (Stream<Path> files = Files.list(from))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
