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
 * {@code messageLogFlushIntervalMs} old.
 *
 * <p>Why on the engine thread: a thread of the log's own must be woken up, and on a machine with no core
 * to spare it takes one from the engine threads for its time slice (on 2 cores, balanced's round-trip
 * p99 went from 13 to 126 us with it), while the message crosses to another core's cache through a
 * ring. Here the line costs the formatting of its bytes and a share of a write, and nothing else; the
 * price is that a write that blocks (a disk the kernel throttles) blocks the duty cycle, as the file
 * and mapped stores already do. Lines reach the operating system within the flush interval: a process
 * that crashes loses at most that much of the log (never of the store).
 */
public final class EngineThreadMessageLog implements EngineMessageLog
{
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
        /** When the oldest line not yet handed to the file was logged. */
        private long firstBufferedNanos;

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

        @Override
        public void flush(final long nowNanos)
        {
            if (file.hasBuffered() && nowNanos - firstBufferedNanos >= flushIntervalNanos)
            {
                file.writeOut();
            }
        }
    }
}
