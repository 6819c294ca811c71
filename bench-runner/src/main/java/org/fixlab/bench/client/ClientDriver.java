package org.fixlab.bench.client;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.Options;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.control.ControlChannel;
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

    public ClientDriver(final Options options, final ClientPeer peer, final Replies replies, final IdleStrategy idle)
    {
        this.options = options;
        this.peer = peer;
        this.replies = replies;
        this.idle = idle;
        this.total = options.warmup + options.messages;
        final boolean stream = options.scenario == Scenario.THROUGHPUT;
        sendNanos = new long[stream ? 0 : total];
        intendedNanos = new long[stream ? 0 : total];
        writeNanos = new long[stream ? 0 : total];
    }

    private String label()
    {
        return options.scenario.id() + " " + options.product.id() + "/" + options.config;
    }

    /** Orders that are answered (echo, conversion, internal): paced or closed-loop. */
    public void runRequestReply()
    {
        final boolean paced = options.paced();
        final long period = 1_000_000_000L / options.rate;
        final long deadline = System.nanoTime() + options.timeoutSeconds * 1_000_000_000L;
        final Progress progress = new Progress(label(), total, options.quiet);
        long allocatedAtStart = options.warmup == 0 ? ServerRecorder.allocatedBytes() : -1;
        final long t0 = System.nanoTime() + 1_000_000L;
        for (int i = 0; i < total; i++)
        {
            if (i == options.warmup && i > 0)
            {
                allocatedAtStart = ServerRecorder.allocatedBytes();
            }
            long intended = t0 + i * period;
            if (paced)
            {
                // the load generator spins on the clock; answers that arrive meanwhile are processed
                while (System.nanoTime() < intended)
                {
                    peer.poll();
                }
            }
            final long t1 = System.nanoTime();
            if (!paced)
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
        while (replies.count() < total)
        {
            idle.idle(peer.poll());
            checkDeadline(deadline, total);
        }
        allocatedBytes = ServerRecorder.allocatedBytes() - allocatedAtStart - progress.printAllocated();
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
        final Progress progress = new Progress(label(), total, options.quiet);
        long allocatedAtStart = options.warmup == 0 ? ServerRecorder.allocatedBytes() : -1;
        for (int i = 0; i < total; i++)
        {
            if (i == options.warmup && i > 0)
            {
                allocatedAtStart = ServerRecorder.allocatedBytes();
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
        }
        allocatedBytes = ServerRecorder.allocatedBytes() - allocatedAtStart - progress.printAllocated();
        control.sendDone();
        while (!control.resultsArriving())
        {
            idle.idle(peer.poll());
            if (System.nanoTime() > deadline)
            {
                throw new BenchException("timed out after " + options.timeoutSeconds + " s waiting for the server to count " + total
                    + " orders");
            }
        }
    }
}
