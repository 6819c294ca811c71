package org.fixlab.engine.messagelog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.fixlab.engine.session.SessionId;

/**
 * The message log written on the engine thread ({@code messageLogWriter=engine-thread}): each message is
 * formatted straight into its session's buffer (64 KiB, growing to 1 MiB for a busy session), which goes
 * to the file in one write system call when it is full, or from the duty cycle once its oldest line is
 * {@code messageLogFlushIntervalMs} old, {@link #FLUSH_PIECE_BYTES} of whole lines a duty cycle.
 *
 * <p>Why on the engine thread: a thread of the log's own must be woken up, and on a machine with no core
 * to spare it takes one from the engine threads for its time slice (on 2 cores, balanced's round-trip
 * p99 went from 13 to 126 us with it), while the message crosses to another core's cache through a
 * ring. Here the line costs the formatting of its bytes and a share of a write, and nothing else; the
 * price is that a write that blocks (a disk the kernel throttles) blocks the duty cycle, as the file
 * and mapped stores already do. Lines reach the operating system within the flush interval and the few
 * duty cycles its pieces take: a process that crashes loses at most that much of the log (never of the
 * store).
 */
public final class EngineThreadMessageLog implements EngineMessageLog
{
    /**
     * The most a duty cycle writes of lines that are due: whole lines, the rest on the next cycles. In balanced's
     * paced round trips (50,000 orders a second) 10 ms of an end's lines is about 175 KB: written at once into new
     * page-cache pages, it held the duty cycle 100-400 us every 10 ms on a 2-core VM, and every order that arrived
     * meanwhile waited (6-31 of them). In pieces no cycle is held for more than one, whatever the rate.
     *
     * <p>The price shows in a closed loop, where one order is outstanding at a time: the same time spent writing now
     * delays some 2% of round trips by a piece instead of 0.1% by the whole write. Engine jars before and after,
     * interleaved, balanced, 6-8 runs each in three campaigns (s26-pieces2, -3, -4), medians: closed-loop p99 28.7 ->
     * 28.7, 26.8 -> 31.2, 25.6 -> 30.9 us and p999 154 -> 62, 158 -> 75, 138 -> 66 us; paced p99 91 -> 67, 130 -> 82,
     * 94 -> 119 us (two runs with stalls of their own). Open arrivals, as an order flow has, are the case to serve.
     * 4 KiB pieces did no better (closed-loop p99 29.8, p999 91 us); 64 KiB ones still held a cycle 100-250 us.
     */
    static final int FLUSH_PIECE_BYTES = 16 * 1024;

    private final Path directory;
    private final FieldDelimiter delimiter;
    private final long flushIntervalNanos;
    private final List<SessionLogFile> files = new ArrayList<>();
    private boolean closed;

    public EngineThreadMessageLog(final Path directory, final FieldDelimiter delimiter, final long flushIntervalNanos)
    {
        if (flushIntervalNanos < 0)
        {
            throw new IllegalArgumentException("message log flush interval: " + flushIntervalNanos + " ns is negative");
        }
        this.directory = SessionLogFile.createDirectory(directory);
        this.delimiter = delimiter;
        this.flushIntervalNanos = flushIntervalNanos;
    }

    @Override
    public synchronized MessageLog forSession(final SessionId id)
    {
        final SessionLogFile file = SessionLogFile.open(directory, id, delimiter);
        files.add(file);
        return new SessionLines(file, flushIntervalNanos);
    }

    @Override
    public synchronized long linesLost()
    {
        long lost = 0;
        for (final SessionLogFile file : files)
        {
            lost += file.linesLost();
        }
        return lost;
    }

    /** Call after the engine's duty cycle has stopped: the files are the engine thread's until then. */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            for (final SessionLogFile file : files)
            {
                file.close();
            }
        }
    }

    /** One session's log, used on the engine thread only. */
    private static final class SessionLines implements MessageLog
    {
        private final SessionLogFile file;
        private final long flushIntervalNanos;
        /** When the oldest line not yet handed to the file was logged, or no later than that. */
        private long firstBufferedNanos;
        /** How far the lines reach that the last flush found due, on {@link SessionLogFile#bytesLogged}'s count. */
        private long dueUntil;

        SessionLines(final SessionLogFile file, final long flushIntervalNanos)
        {
            this.file = file;
            this.flushIntervalNanos = flushIntervalNanos;
        }

        @Override
        public void message(final DirectBuffer buffer, final int offset, final int length, final long epochNanos)
        {
            if (!file.hasBuffered())
            {
                firstBufferedNanos = epochNanos;
            }
            file.append(buffer, offset, length, length, epochNanos);
            if (flushIntervalNanos == 0)
            {
                file.writeOut();
            }
        }

        /**
         * A piece of the lines due, if any are left; else, once the oldest line has waited the interval, the first piece
         * of what is buffered now. Lines logged after that wait an interval of their own: a busy session whose lines come
         * in faster than a piece a duty cycle would otherwise write pieces for as long as it stays busy, where a buffer
         * left to fill goes in one write.
         */
        @Override
        public void flush(final long nowNanos)
        {
            if (!file.hasBuffered())
            {
                return;
            }
            if (file.bytesHandedOver() >= dueUntil)
            {
                if (nowNanos - firstBufferedNanos < flushIntervalNanos)
                {
                    return;
                }
                dueUntil = file.bytesLogged();
                firstBufferedNanos = nowNanos;
            }
            file.writeSome(FLUSH_PIECE_BYTES);
        }
    }
}
