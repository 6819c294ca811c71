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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.ChildJvm;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.store.StoreType;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kills an initiator process ({@link CrashInitiator}, file or mapped store) with SIGKILL at random
 * points while it streams orders to this process (a fixlab acceptor with a file store) and takes
 * the ExecutionReports back, restarts it on the same store, many times over: {@link AcceptorCrashTest}
 * with the roles swapped.
 *
 * <p>Checked, in both directions of flow:
 * <ul>
 * <li>every order the initiator's trySend accepted reaches the acceptor (stored before it is sent,
 * so a restarted initiator resends what the crash kept off the wire);</li>
 * <li>every order the acceptor received gets a report that reaches an initiator's application, and
 * every further report for the same order is marked PossDupFlag or PossResend;</li>
 * <li>a restarted initiator never reuses a MsgSeqNum the acceptor has seen and never expects one
 * beyond what the acceptor sent, so no side logs out with "MsgSeqNum too low".</li>
 * </ul>
 * The number of kills per store is {@code -Dfixlab.initiatorCrashes=N} (default 25; {@code make
 * crash-test} runs more).
 */
class InitiatorCrashTest
{
    private static final int CRASHES = Integer.getInteger("fixlab.initiatorCrashes", 25);
    private static final int MAX_KILL_DELAY_MS = 250;
    private static final SessionId ACCEPTOR = new SessionId(CrashInitiator.SESSION.version(), "EXEC", "CLIENT");

    @TempDir
    Path dir;

    private final List<String> acceptorEvents = new ArrayList<>();
    private final Set<String> ordersReceived = new HashSet<>();
    private final Set<String> ordersSent = new HashSet<>();
    private final Map<String, Integer> reports = new HashMap<>();
    private int reportsTotal;
    private int repeatsWithPossDup;
    private int repeatsWithPossResend;
    private final List<String> unmarkedRepeats = new ArrayList<>();
    private final CrashAcceptor.ReportingApplication application = new CrashAcceptor.ReportingApplication(ordersReceived::add);

    @ParameterizedTest
    @EnumSource(value = StoreType.class, names = {"FILE", "MAPPED"})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyOrderArrivesAndIsAnsweredThroughInitiatorCrashes(final StoreType storeType) throws Exception
    {
        final Random random = new Random();
        final Path initiatorStore = Files.createDirectories(dir.resolve("initiator"));
        final Path initiatorErrors = dir.resolve("initiator-stderr.txt");
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeType", "file")
            .set("storeDirectory", Files.createDirectories(dir.resolve("acceptor")).toString())
            .set("tcpNoDelay", "true");
        int killedWithOrdersInFlight = 0;
        final long started = System.nanoTime();
        try (FixEngine engine = new FixEngine(configuration, new OffsetEpochNanoClock(), CrashLogs.recording(acceptorEvents)))
        {
            final Session session = engine.addAcceptorSession(ACCEPTOR, application);
            final int port = engine.listen("127.0.0.1", 0);
            for (int crash = 1; crash <= CRASHES; crash++)
            {
                final Child initiator = startInitiator(storeType, initiatorStore, port, crash, false, initiatorErrors, session);
                final long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random.nextInt(MAX_KILL_DELAY_MS));
                while (System.nanoTime() < killAt)
                {
                    Engines.pump(engine);
                }
                // SIGKILL through the handle: Process.destroyForcibly would also close our end of its stdout,
                // losing lines the child wrote before it died
                initiator.process.toHandle().destroyForcibly();
                assertTrue(initiator.process.waitFor(10, TimeUnit.SECONDS), "the killed initiator did not exit");
                initiator.readAll();
                if (!ordersReceived.containsAll(ordersSent) || reports.size() < ordersReceived.size())
                {
                    killedWithOrdersInFlight++;
                }
                Engines.pollUntil(() -> !session.isConnected(), 10, () -> "the acceptor never noticed the initiator died", engine);
            }

            // the last run sends nothing new and is not killed: every order sent so far must arrive and be answered
            final Child initiator = startInitiator(storeType, initiatorStore, port, CRASHES + 1, true, initiatorErrors, session);
            try
            {
                Engines.pollUntil(() ->
                {
                    initiator.drain();
                    return ordersReceived.containsAll(ordersSent) && reports.keySet().containsAll(ordersReceived);
                }, 60, () -> "orders never received: " + missing(ordersSent, ordersReceived) + ", received but never answered: " +
                    missing(ordersReceived, reports.keySet()) + "; initiator log: " + CrashLogs.read(initiatorErrors), engine);
            }
            finally
            {
                initiator.process.destroyForcibly();
                initiator.process.waitFor(10, TimeUnit.SECONDS);
            }
        }

        System.out.printf("initiator crash test (%s store): %d SIGKILLs (%d with orders or reports in flight), %d orders sent, " +
            "%d received, %d reports checked, %d repeats with PossDupFlag, %d with PossResend, missing orders=%d, " +
            "missing reports=%d, %.1f s%n", storeType, CRASHES, killedWithOrdersInFlight, ordersSent.size(),
            ordersReceived.size(), reportsTotal, repeatsWithPossDup, repeatsWithPossResend,
            missing(ordersSent, ordersReceived).size(), missing(ordersReceived, reports.keySet()).size(),
            (System.nanoTime() - started) / 1e9);
        assertTrue(ordersSent.size() > CRASHES, "too few orders streamed to mean anything: " + ordersSent.size());
        assertEquals(List.of(), unmarkedRepeats, "repeated reports without PossDupFlag or PossResend");
        assertEquals(0, application.notSent(), "the acceptor could not send some reports");
        final String initiatorLog = CrashLogs.read(initiatorErrors);
        assertTrue(!initiatorLog.contains("too low") && acceptorEvents.stream().noneMatch(e -> e.contains("too low")),
            () -> "a side lost its sequence numbers: " + acceptorEvents + "\n" + initiatorLog);
    }

    /** A running child and what it printed so far. */
    private final class Child
    {
        final Process process;
        final Thread reader;
        final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();

        Child(final Process process, final BufferedReader out)
        {
            this.process = process;
            reader = new Thread(() ->
            {
                try
                {
                    for (String line; (line = out.readLine()) != null; )
                    {
                        lines.add(line);
                    }
                }
                catch (final IOException ex)
                {
                    lines.add("read failed: " + ex);
                }
            }, "initiator-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        /** Takes what the child printed so far. */
        void drain()
        {
            for (String line; (line = lines.poll()) != null; )
            {
                onLine(line);
            }
        }

        /** After the child has died: everything it printed, to the last line. */
        void readAll() throws InterruptedException
        {
            reader.join(TimeUnit.SECONDS.toMillis(10));
            drain();
        }
    }

    private void onLine(final String line)
    {
        final String[] words = line.split(" ");
        switch (words[0])
        {
            case "sent" -> ordersSent.add(words[1]);
            case "report" ->
            {
                reportsTotal++;
                if (reports.merge(words[1], 1, Integer::sum) > 1)
                {
                    switch (words[2])
                    {
                        case "possdup" -> repeatsWithPossDup++;
                        case "possresend" -> repeatsWithPossResend++;
                        default -> unmarkedRepeats.add(words[1]);
                    }
                }
            }
            default -> throw new AssertionError("unexpected line from the initiator: " + line);
        }
    }

    private Child startInitiator(final StoreType storeType, final Path store, final int port, final int run, final boolean drain,
        final Path errors, final Session acceptor) throws IOException
    {
        final List<String> command = ChildJvm.command(
            "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
            CrashInitiator.class.getName(), storeType.name(), store.toString(), String.valueOf(port), String.valueOf(run));
        if (drain)
        {
            command.add("drain");
        }
        final Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile())).start();
        final BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII));
        final String ready = out.readLine();
        assertNotNull(ready, () -> "the initiator died before connecting: " + CrashLogs.read(errors));
        // The store must remember at least what the acceptor saw: whatever went out on the wire was stored first.
        final int nextSender = Integer.parseInt(ready.replaceAll(".*nextSender=(\\d+).*", "$1"));
        final int nextTarget = Integer.parseInt(ready.replaceAll(".*nextTarget=(\\d+).*", "$1"));
        assertTrue(nextSender >= acceptor.nextTargetSeqNum(), () -> "restarted initiator lost its sender number: " + ready +
            " but the acceptor already received up to " + (acceptor.nextTargetSeqNum() - 1));
        assertTrue(nextTarget <= acceptor.nextSenderSeqNum(), () -> "restarted initiator expects " + nextTarget +
            ", beyond what the acceptor sent (" + (acceptor.nextSenderSeqNum() - 1) + ")");
        return new Child(child, out);
    }

    private static Set<String> missing(final Set<String> expected, final Set<String> present)
    {
        final Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(present);
        return missing;
    }
}
