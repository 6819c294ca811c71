package org.fixlab.bench.client;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.Options;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.control.ControlChannel;
import org.fixlab.bench.run.CompilerThreads;
import org.fixlab.bench.run.JvmPauses;
import org.fixlab.bench.run.OtherTasks;
import org.fixlab.bench.run.Stalls;
import org.fixlab.bench.server.CpuReference;
import org.fixlab.bench.server.ServerRecorder;

/**
 * The client's measurement loops, written once against {@link ClientPeer} so every product runs the
 * same code: paced (send at t0 + i/rate, so a stall shows as latency from the intended time),
 * closed-loop (send, wait for the answer, send), and the one-way stream. Everything is stored in
 * arrays allocated before the loop starts.
 */
public final class ClientDriver
{
    private final Options options;
    private final ClientPeer peer;
    private final Replies replies;
    private final IdleStrategy idle;
    private final int total;
    /** t1: System.nanoTime() just before the send call. */
    public final long[] sendNanos;
    /** When the send was due (== sendNanos when not paced). */
    public final long[] intendedNanos;
    /** t2 of each send, as the product reports it. */
    public final long[] writeNanos;
    public long allocatedBytes = -1;
    /** Null where the host cannot tell; else read at every round boundary and after the last measured message. */
    private final OtherTasks otherTasks;
    /** This JVM's and a local server's JIT compilers, or null; with the peer's poll that keeps the session going meanwhile. */
    private final CompilerThreads compilers;
    private final Runnable pollPeer;
    /** The readings around the measured messages, or null (no reader, or the run has not got there). */
    private OtherTasks.Snapshot otherTasksBefore;
    private OtherTasks.Snapshot otherTasksAfter;
    /** A stream's sending-thread readings, warm-up included (senderReferenceEntry keeps the measured ones). */
    private long[] senderReferences;
    private int senderReferenceCount;
    /** The compilers' times once the wait for them before the measured round was over, and when (System.nanoTime()). */
    private Map<String, Long> compilersBefore;
    private long compilersFrom;
    /** What the compilers took from there to the end of the measured messages, and over how long; -1 until read. */
    private long compilersInWindow = -1;
    private long compilersWindow = -1;
    /** Where the client's thread stood still while it spun on a paced run's clock; null in other runs. */
    private final Stalls stalls;
    /** The measured window: the last round's start and the last answer's arrival (System.nanoTime()). */
    private long measuredFrom;
    private long measuredTo;
    /** At least this many warm-up rounds, so the JIT has seen the round boundary taken before the measured orders. */
    static final int WARMUP_ROUNDS = 5;
    /** At most this many warm-up orders between two drains. */
    static final int MAX_WARMUP_ROUND = 10_000;
    /**
     * The warm-up orders sent after the runner's last pause, right before the first measured order: 10 ms at the seed's
     * 50,000 orders a second, 5-6 ms in a closed loop. During the pause (the drain, the readings, the wait for an idle
     * JIT, 20 ms to 2 s) the products idle, and an idle strategy that backs off parks for longer and longer; the first
     * order after it waited for that park, and the orders due meanwhile queued behind it. In paced {@code balanced} runs
     * that put the first measured order at 0.2-1.0 ms, and 8-51 of the first 200 over 100 us: 4-18% of all the orders
     * over 100 us in those runs, so of the tail a p999 describes (2026-11-30). The pre-roll is long enough for the
     * backlog to drain, and the measured orders start on the flow's steady state.
     */
    static final int PRE_ROLL = 500;

    public ClientDriver(final Options options, final ClientPeer peer, final Replies replies, final IdleStrategy idle,
        final OtherTasks otherTasks, final CompilerThreads compilers)
    {
        this.options = options;
        this.otherTasks = otherTasks;
        this.compilers = compilers;
        this.pollPeer = peer::poll;
        this.peer = peer;
        this.replies = replies;
        this.idle = idle;
        this.total = options.warmup + options.messages;
        final boolean stream = options.scenario == Scenario.THROUGHPUT;
        sendNanos = new long[stream ? 0 : total];
        intendedNanos = new long[stream ? 0 : total];
        writeNanos = new long[stream ? 0 : total];
        stalls = options.paced() ? new Stalls() : null;
    }

    private String label()
    {
        return options.scenario.id() + " " + options.product.id() + "/" + options.config;
    }

    /**
     * Orders that are answered (echo, conversion, internal): paced or closed-loop. The warm-up runs in rounds of
     * at most {@link #MAX_WARMUP_ROUND} orders; after each round, and so before the measured orders, the driver waits for every
     * answer and starts the next round on a fresh schedule. A backlog the warm-up left (code still being compiled, a
     * product that cannot keep the rate) is not measured as latency of the first measured orders, and the measured
     * orders run through the very code the warm-up compiled: the round boundary is a branch taken many times
     * before, not one the JIT sees for the first time at the first measured order. The last round starts
     * {@link #PRE_ROLL} warm-up orders before the measured ones, so that they do not pay for the pause before it.
     */
    public void runRequestReply()
    {
        final boolean paced = options.paced();
        final long period = 1_000_000_000L / options.rate;
        final long deadline = System.nanoTime() + options.timeoutSeconds * 1_000_000_000L;
        final int[] roundEnds = answeredRoundEnds(options.warmup, total);
        final Progress progress = new Progress(label(), total, options.quiet, roundEnds.length);
        int round = 0;
        int roundStart = 0;
        startRoundReadings();
        startWindow();
        long scheduleStart = measuredFrom + 1_000_000L;
        long allocatedAtStart = ServerRecorder.allocatedBytes();
        progress.startRound(round);
        for (int i = 0; i < total; i++)
        {
            if (i == roundEnds[round])
            {
                awaitReplies(i, deadline);
                round++;
                roundStart = i;
                startRoundReadings();
                startWindow();
                scheduleStart = measuredFrom + 1_000_000L;
                allocatedAtStart = ServerRecorder.allocatedBytes();
                progress.startRound(round);
            }
            long intended = scheduleStart + (i - roundStart) * period;
            if (paced)
            {
                // the load generator spins on the clock; answers that arrive meanwhile are processed
                long now;
                while ((now = System.nanoTime()) < intended)
                {
                    stalls.tick(now);
                    peer.poll();
                }
            }
            final long t1 = System.nanoTime();
            if (paced)
            {
                // a reading per send too, so that orders sent late after a stall count as sends, not as the stall
                stalls.tick(t1);
            }
            else
            {
                intended = t1;
            }
            while (!peer.send(i, false))
            {
                peer.poll();
            }
            peer.poll();
            sendNanos[i] = t1;
            intendedNanos[i] = intended;
            writeNanos[i] = peer.lastWriteNanos();
            if (!paced)
            {
                while (replies.count() <= i)
                {
                    idle.idle(peer.poll());
                    checkDeadline(deadline, i + 1);
                }
                idle.reset();
            }
            progress.tick(i + 1);
        }
        awaitReplies(total, deadline);
        measuredTo = System.nanoTime();
        allocatedBytes = ServerRecorder.allocatedBytes() - allocatedAtStart;
        // after the count of the thread's allocation: the reading's own objects (350 KB) are the runner's
        readCompilersAtWindowEnd();
        if (stalls != null)
        {
            stalls.finish(measuredTo);
        }
        otherTasksAfter = readOtherTasks();
        progress.finish();
    }

    /**
     * At every round's start, round trip or stream: reads the host's other tasks (the last round's reading starts the
     * measured window), then keeps the session polled until the JVMs' compilers are idle (see {@link CompilerThreads}),
     * so that the measured round starts after the compiles the drain and the readings before it set off.
     */
    private void startRoundReadings()
    {
        startRoundReadings(pollPeer);
    }

    /** {@link #startRoundReadings()} with {@code turn} as what keeps the session going while the JIT is awaited. */
    private void startRoundReadings(final Runnable turn)
    {
        otherTasksBefore = readOtherTasks();
        if (compilers != null)
        {
            compilers.awaitQuiet(turn);
            idle.reset(); // a stream's turns idle: the next boundary's, or the wait after the last send, start afresh
            compilersBefore = compilers.perTask();
            compilersFrom = System.nanoTime();
        }
    }

    /**
     * At the end of the measured messages (a round trip's last answer, a stream's last send): what the JVMs' compilers took
     * since the wait for them ended. A compile the measured messages set off, or one still running when the wait gave
     * up, takes a CPU from the client's or the server's thread, and says the JVM was still warming up. A stream's is read
     * at its last send, the end of the client's measured sends, before it waits for the server's count (see
     * {@link #turnsUntilCount}).
     */
    private void readCompilersAtWindowEnd()
    {
        if (compilers != null && compilersBefore != null)
        {
            compilersInWindow = CompilerThreads.cpuNanosBetween(compilersBefore, compilers.perTask());
            compilersWindow = System.nanoTime() - compilersFrom;
        }
    }

    /**
     * A round trip's round starts here, and the last round's start is the measured window's: on the clock, and where
     * the client's thread is watched for stalls, on its CPU clock too. The drain and the readings before it are the
     * runner's own pause, not a stall.
     */
    private void startWindow()
    {
        measuredFrom = System.nanoTime();
        if (stalls != null)
        {
            stalls.restart(measuredFrom);
        }
    }

    /**
     * The host's other tasks so far, or null. Read at every round boundary, not only the measured one: a call the
     * compiled loop met for the first time at the measured boundary would send it back to the interpreter there. The
     * last boundary's reading is the measured window's start.
     */
    private OtherTasks.Snapshot readOtherTasks()
    {
        return otherTasks == null ? null : otherTasks.snapshot();
    }

    /** The manifest's {@code other_tasks} entry for the measured messages, or null where they were not read. */
    public Map<String, Object> otherTasksEntry()
    {
        return otherTasksBefore == null || otherTasksAfter == null ? null : OtherTasks.manifestEntry(otherTasksBefore, otherTasksAfter);
    }

    /**
     * The manifest's {@code sender_cpu_reference}: how fast the stream's sending thread's CPU ran over the measured
     * orders ({@link CpuReference}, timed every {@link #SENDER_REFERENCE_EVERY} sends); null for a round trip.
     */
    public Map<String, Object> senderReferenceEntry()
    {
        // the readings the warm-up took: one at each multiple of SENDER_REFERENCE_EVERY sends it holds
        final int warmupReadings = options.warmup / SENDER_REFERENCE_EVERY;
        return senderReferences == null || senderReferenceCount <= warmupReadings ? null
            : CpuReference.manifestEntry(Arrays.copyOfRange(senderReferences, warmupReadings, senderReferenceCount));
    }

    /**
     * The manifest's {@code compilers} entry: the CPU time the JIT compiler threads of the benchmark's JVMs on this host
     * took from the end of the wait for them before the measured round to the end of the measured messages
     * ({@link #readCompilersAtWindowEnd}), and that span; null where they were not read.
     */
    public Map<String, Object> compilersEntry()
    {
        if (compilersInWindow < 0)
        {
            return null;
        }
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("window_ns", compilersWindow);
        entry.put("cpu_ns", compilersInWindow);
        return entry;
    }

    /**
     * The manifest's {@code stalls} entry of a paced run: how long the client's thread and, from the server's
     * {@code arrays} (its gaps, on this host's clock; none from another host), the server's stood still within the
     * measured window; null in other runs or where neither is known.
     */
    public Map<String, Object> stallsEntry(final Map<String, long[]> serverArrays)
    {
        if (stalls == null)
        {
            return null;
        }
        final Map<String, long[]> clientArrays = stalls.arrays();
        // either process's pause may hold the other's thread too: a collection's threads take both CPUs of two
        final JvmPauses.Intervals pauses = JvmPauses.union(clientArrays, serverArrays);
        return Stalls.manifestEntry(measuredTo - measuredFrom, Stalls.within(clientArrays, measuredFrom, measuredTo, pauses),
            Stalls.within(serverArrays, measuredFrom, measuredTo, pauses));
    }

    /**
     * Where each round ends: every round of at least {@link #WARMUP_ROUNDS} equal ones (at most {@code maxRound}
     * orders each) through the warm-up, then the warm-up's end, then the total (a sentinel the loop never reaches).
     * Without a warm-up there is one round, the measured one.
     */
    static int[] roundEnds(final int warmup, final int total, final int maxRound)
    {
        final int round = Math.max(1, Math.min(maxRound, warmup / WARMUP_ROUNDS));
        final int rounds = warmup == 0 ? 0 : (warmup + round - 1) / round;
        final int[] ends = new int[rounds + 1];
        for (int r = 0; r < rounds; r++)
        {
            ends[r] = Math.min((r + 1) * round, warmup);
        }
        ends[rounds] = total;
        return ends;
    }

    /**
     * Where an answered run's rounds end: as {@link #roundEnds}, through the warm-up but its last {@link #PRE_ROLL}
     * orders (all of a shorter warm-up), which open the measured round.
     */
    static int[] answeredRoundEnds(final int warmup, final int total)
    {
        return roundEnds(warmup - Math.min(PRE_ROLL, warmup), total, MAX_WARMUP_ROUND);
    }

    private void awaitReplies(final int expected, final long deadline)
    {
        while (replies.count() < expected)
        {
            idle.idle(peer.poll());
            checkDeadline(deadline, expected);
        }
        idle.reset();
    }

    private void checkDeadline(final long deadline, final int expected)
    {
        if (System.nanoTime() > deadline)
        {
            throw new BenchException("timed out after " + options.timeoutSeconds + " s: " + replies.count() + " of " + expected
                + " answers received");
        }
    }

    /** The one-way stream: as fast as back-pressure allows, then keep the I/O going until the server reports. */
    public void runStream(final ControlChannel control)
    {
        final long deadline = System.nanoTime() + options.timeoutSeconds * 1_000_000_000L;
        // no drain between rounds: the server times the stream from the first measured order's callback. Each boundary
        // takes the snapshots and waits for an idle JIT, in a branch the warm-up has taken before; the compiles the
        // warm-up and the readings set off had run on into the measured stream, 24-81 ms of fixlab's 250-350 ms window
        // and up to 129 ms of the raw socket's in the client's JVM alone (2026-11-29). WARMUP_ROUNDS rounds, not
        // rounds of MAX_WARMUP_ROUND: each boundary reads every other task's CPU time from /proc (OtherTasks), 300
        // times in a 3,000,000-order warm-up, and that reading's garbage (in one logged run two young GCs, 48 and 11
        // ms) and compiles slowed the measured stream after it: runs alternating 300 and 5 boundaries, fixlab 3.14M
        // -> 4.33M msg/s by the medians (faster in 9 of 10 pairs), the raw socket 6.94M -> 7.73M (7 of 10)
        final int[] roundEnds = roundEnds(options.warmup, total, Integer.MAX_VALUE);
        final Progress progress = new Progress(label(), total, options.quiet, roundEnds.length);
        final Runnable boundaryTurn = () ->
        {
            if (turnsUntilCount(control, System.nanoTime() + BOUNDARY_TURNS_NANOS))
            {
                throw new BenchException("the server answered on the control channel before the stream ended (its log says why)");
            }
        };
        int round = 0;
        senderReferences = new long[total / SENDER_REFERENCE_EVERY];
        startRoundReadings(boundaryTurn);
        long allocatedAtStart = ServerRecorder.allocatedBytes();
        progress.startRound(round);
        for (int i = 0; i < total; i++)
        {
            if (i == roundEnds[round])
            {
                round++;
                startRoundReadings(boundaryTurn);
                allocatedAtStart = ServerRecorder.allocatedBytes();
                progress.startRound(round);
            }
            while (!peer.send(i, true))
            {
                peer.poll();
                if (System.nanoTime() > deadline)
                {
                    throw new BenchException("timed out after " + options.timeoutSeconds + " s: " + i + " of " + total + " orders sent");
                }
            }
            progress.tick(i + 1);
            if ((i + 1) % SENDER_REFERENCE_EVERY == 0)
            {
                // every 10,000 sends from the first, warm-up included and kept alike, so that the JIT has compiled all
                // of it before the measured orders: a branch first taken there was a deoptimization, and compiles in
                // the measured window (11 of 16 streams refused for the JIT where 1 of 20 had been); the manifest
                // takes the measured orders' readings (senderReferenceEntry)
                senderReferences[senderReferenceCount++] = CpuReference.measure();
            }
        }
        allocatedBytes = ServerRecorder.allocatedBytes() - allocatedAtStart;
        readCompilersAtWindowEnd(); // after the count of the thread's allocation, as in a round trip
        control.sendDone();
        awaitServerCount(control, deadline);
        otherTasksAfter = readOtherTasks();
        progress.finish();
    }

    /**
     * After a stream's last send: {@link #turnsUntilCount} until the server reports, or the run's deadline. Its idle
     * strategy starts afresh: the last boundary reset it ({@link #startRoundReadings(Runnable)}), and the sends since
     * did not use it.
     */
    private void awaitServerCount(final ControlChannel control, final long deadline)
    {
        if (!turnsUntilCount(control, deadline))
        {
            throw new BenchException("timed out after " + options.timeoutSeconds + " s waiting for the server to count " + total
                + " orders");
        }
    }

    /**
     * Turns of the wait for the server's count until it reports (true) or until {@code untilNanos} (false): each polls the
     * session, so that what the client still holds goes out, then looks at the control channel. At every warm-up boundary
     * of a stream the same method keeps the session going while the JIT is awaited, in slices of
     * {@link #BOUNDARY_TURNS_NANOS}, so that it is compiled, loop and all, before the measured orders. Written inline
     * after the last send, the wait was code new to the JIT: it set off 2.4-7.7 ms of compiles in the two JVMs in the
     * 4.5-14 ms the last buffered orders took to reach the server (fixlab optimized, 4 runs, 2026-11-30), and so took a
     * CPU from the client's or the server's thread at the end of the server's measured window. A turn of its own, called
     * from a new loop, was still compiled there by C2 on its own: the warm-up had only run it inlined.
     */
    private boolean turnsUntilCount(final ControlChannel control, final long untilNanos)
    {
        while (true)
        {
            idle.idle(peer.poll());
            if (control.resultsArriving())
            {
                return true;
            }
            if (System.nanoTime() > untilNanos)
            {
                return false;
            }
        }
    }

    /**
     * How often a stream's sending thread times {@link CpuReference}: as the receiving thread does at the server's
     * progress points. The raw socket's stream is as fast as its receiver; fixlab's ends are about as fast as each
     * other, so either can set its pace (with the client's writes traced, 16 of 24 fixlab optimized streams found the
     * server behind for part of their window, and the other 8 wrote every buffer whole; 2026-12-01). Recorded for
     * that; no steady-state rule reads it, because a raw-socket stream whose sender the host slowed is not slower
     * (three at 6.26-7.41M, 2026-12-01), and refusing it would drop the baseline's fast runs.
     */
    static final int SENDER_REFERENCE_EVERY = 10_000;

    /** How long {@link #turnsUntilCount} runs a warm-up boundary's turn of the wait for an idle JIT. */
    private static final long BOUNDARY_TURNS_NANOS = 50_000L;
}
