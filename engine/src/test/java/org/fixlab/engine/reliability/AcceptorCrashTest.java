package org.fixlab.engine.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.ChildJvm;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MessageFramer;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.store.MessageStore;
import org.fixlab.engine.store.MessageStores;
import org.fixlab.engine.store.StoreOptions;
import org.fixlab.engine.store.StoreType;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kills an acceptor process ({@link CrashAcceptor}, file or mapped store) with SIGKILL at random
 * points while orders and execution reports stream both ways, restarts it on the same store and
 * port, and lets this process (a fixlab initiator with a file store) reconnect, many times over.
 *
 * <p>The guarantee checked, which is what FIX offers when the receiving application itself dies:
 * <ul>
 * <li>every order gets at least one ExecutionReport (nothing lost, whatever the crash hit: the order
 * in the socket, the order processed but its report unsent, the report stored but unsent);</li>
 * <li>every further report for the same ClOrdID is marked: PossDupFlag(43)=Y when the session layer
 * resent it, PossResend(97)=Y when the acceptor's application answered a resent order it may have
 * answered before the crash (the application runs before the sequence number is stored, so it is
 * at-least-once per MsgSeqNum);</li>
 * <li>a restarted acceptor never forgets its own numbers: its next outgoing MsgSeqNum is beyond the
 * last one the initiator received, so neither side ever logs out with "MsgSeqNum too low";</li>
 * <li>the store left after the last kill replays as intact messages only, in sequence (torn tails are
 * cut; the store's own tests kill writers mid-record, this checks it end to end).</li>
 * </ul>
 * The number of crashes per store is {@code -Dfixlab.crashes=N} (default 50, so 100 in a build).
 */
class AcceptorCrashTest
{
    private static final int CRASHES = Integer.getInteger("fixlab.crashes", 50);
    private static final int MAX_IN_FLIGHT = 100;
    private static final int MAX_KILL_DELAY_MS = 250;
    private static final SessionId INITIATOR = new SessionId(FixVersion.FIX44, "CLIENT", "EXEC");

    @TempDir
    Path dir;

    private final List<String> initiatorEvents = new ArrayList<>();
    private final ReportLedger reports = new ReportLedger();

    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyOrderIsAnsweredThroughAcceptorCrashes(final StoreType storeType) throws Exception
    {
        final Random random = new Random();
        final Path acceptorStore = Files.createDirectories(dir.resolve("acceptor"));
        final Path acceptorErrors = dir.resolve("acceptor-stderr.txt");
        final int port = FreePorts.pick();
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeType", "file")
            .set("storeDirectory", Files.createDirectories(dir.resolve("initiator")).toString())
            .set("tcpNoDelay", "true")
            .set("reconnectIntervalMs", "20")
            .set("reconnectMaxIntervalMs", "200");
        int orders = 0;
        int killedWithOrdersInFlight = 0;
        final long started = System.nanoTime();
        try (FixEngine engine = new FixEngine(configuration, new OffsetEpochNanoClock(), CrashLogs.recording(initiatorEvents)))
        {
            final Session session = engine.addInitiatorSession(INITIATOR, "127.0.0.1", port, reports);
            final MessageEncoder order = new MessageEncoder();
            for (int crash = 1; crash <= CRASHES; crash++)
            {
                final Process acceptor = startAcceptor(storeType, acceptorStore, port, acceptorErrors, session);
                final long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random.nextInt(MAX_KILL_DELAY_MS));
                while (System.nanoTime() < killAt)
                {
                    if (session.isLoggedOn() && orders - reports.answered() < MAX_IN_FLIGHT &&
                        session.trySend(ReportLedger.order(order, orders)) > 0)
                    {
                        orders++;
                    }
                    Engines.pump(engine);
                }
                if (orders > reports.answered())
                {
                    killedWithOrdersInFlight++;
                }
                acceptor.destroyForcibly();
                assertTrue(acceptor.waitFor(10, TimeUnit.SECONDS), "the killed acceptor did not exit");
                Engines.pollUntil(() -> !session.isConnected(), 10, () -> "the initiator never noticed the acceptor died", engine);
            }

            // the last run is not killed: it must answer everything that is still open
            final Process acceptor = startAcceptor(storeType, acceptorStore, port, acceptorErrors, session);
            try
            {
                final int sent = orders;
                Engines.pollUntil(() -> reports.answered() == sent, 60, () -> "orders without an ExecutionReport: " +
                    reports.unanswered(sent) + " (" + reports.answered() + " of " + sent + " answered); acceptor log: " +
                    CrashLogs.read(acceptorErrors), engine);
            }
            finally
            {
                acceptor.destroyForcibly();
                acceptor.waitFor(10, TimeUnit.SECONDS);
            }
        }

        final String acceptorLog = CrashLogs.read(acceptorErrors);
        System.out.printf("acceptor crash test (%s store): %d SIGKILLs (%d with orders in flight), %d orders, " +
            "%d reports checked, %d repeats with PossDupFlag, %d with PossResend, %.1f s%n", storeType, CRASHES,
            killedWithOrdersInFlight, orders, reports.total(), reports.repeatsWithPossDup(),
            reports.repeatsWithPossResend(), (System.nanoTime() - started) / 1e9);
        assertTrue(orders > CRASHES, "too few orders streamed to mean anything: " + orders);
        assertEquals(0, reports.unmarkedRepeats(), () -> "repeated reports without PossDupFlag or PossResend, first: " +
            reports.firstUnmarkedRepeat());
        assertTrue(!acceptorLog.contains(CrashAcceptor.REPORT_NOT_SENT), () -> "the acceptor dropped reports: " + acceptorLog);
        assertTrue(!acceptorLog.contains("too low") && initiatorEvents.stream().noneMatch(e -> e.contains("too low")),
            () -> "a side lost its sequence numbers: " + initiatorEvents + "\n" + acceptorLog);
        assertStoreIntact(storeType, acceptorStore);
    }

    private Process startAcceptor(final StoreType storeType, final Path store, final int port, final Path errors,
        final Session initiator) throws IOException
    {
        final Process child = new ProcessBuilder(ChildJvm.command(
            "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
            CrashAcceptor.class.getName(), storeType.name(), store.toString(), String.valueOf(port)))
            .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()))
            .start();
        final String ready = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertNotNull(ready, () -> "the acceptor died before listening: " + CrashLogs.read(errors));
        // The store must remember at least what the initiator saw: whatever went out on the wire was stored first.
        final int nextSender = Integer.parseInt(ready.replaceAll(".*nextSender=(\\d+).*", "$1"));
        final int nextTarget = Integer.parseInt(ready.replaceAll(".*nextTarget=(\\d+).*", "$1"));
        assertTrue(nextSender >= initiator.nextTargetSeqNum(), () -> "restarted acceptor lost its sender number: " + ready +
            " but the initiator already received up to " + (initiator.nextTargetSeqNum() - 1));
        assertTrue(nextTarget <= initiator.nextSenderSeqNum(), () -> "restarted acceptor expects " + nextTarget +
            ", beyond what the initiator sent (" + (initiator.nextSenderSeqNum() - 1) + ")");
        return child;
    }

    /** Every message the acceptor's store holds is one whole, valid FIX message with the MsgSeqNum it is filed under. */
    private static void assertStoreIntact(final StoreType storeType, final Path store)
    {
        final MessageFramer framer = new MessageFramer(1 << 20);
        final MessageDecoder decoder = new MessageDecoder(1024);
        final int[] previous = {0};
        try (MessageStore reopened = MessageStores.open(storeType, store, CrashAcceptor.SESSION.key(), new StoreOptions()))
        {
            final int replayed = reopened.replay(1, Integer.MAX_VALUE, (seqNum, buffer, offset, length) ->
            {
                assertTrue(seqNum > previous[0], "replay out of order at " + seqNum);
                previous[0] = seqNum;
                assertEquals(MessageFramer.FRAME, framer.scan(buffer, offset, offset + length), "stored message " + seqNum + " is not a frame");
                assertEquals(length, framer.frameLength(), "stored message " + seqNum + " has bytes around the frame");
                assertTrue(MessageFramer.checksumValid(buffer, offset, length), "stored message " + seqNum + " fails its CheckSum");
                assertEquals(MessageDecoder.OK, decoder.decode(buffer, offset, length));
                assertEquals(seqNum, decoder.intValue(Fix.MSG_SEQ_NUM, -1), "stored message filed under the wrong MsgSeqNum");
            });
            assertTrue(replayed > 0, "the acceptor's store is empty");
            assertTrue(reopened.nextSenderSeqNum() > previous[0], "next sender number below the last stored message");
        }
    }
}
