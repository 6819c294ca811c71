package org.fixlab.engine.messagelog;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.fixlab.engine.session.SessionId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The message log of one engine written by a thread of its own ({@code messageLogWriter=own-thread}): every
 * message of every session, appended to
 * {@code <directory>/<BeginString>-<SenderCompID>-<TargetCompID>.messages.log} (QuickFIX/J's FileLog
 * names and line format). The engine thread only copies each message into a one-to-one ring buffer
 * and goes on; a thread of the log's own formats the lines and writes them, so a slow disk never
 * reaches the duty cycle. That thread sleeps a millisecond whenever there is nothing to write.
 *
 * <p>Nothing is dropped to spare the engine: if the ring is full (the disk is slower than the message
 * rate for longer than the ring holds), the engine thread waits for room, and {@link #ringFullWaits()}
 * counts it. A file that fails is reported once and its lines counted as lost; it never blocks.
 * The log is an audit trail, not the store: lines reach the OS when the ring runs dry, and are not
 * forced to disk (the store is what the session recovers from).
 */
public final class MessageLogWriter implements EngineMessageLog
{
    /** The smallest ring accepted, so that any message of the default maximum sizes fits whole. */
    public static final int MIN_BUFFER_SIZE = 1 << 20;

    private static final Logger LOGGER = LoggerFactory.getLogger(MessageLogWriter.class);
    private static final int MESSAGE = 1;
    // record layout in the ring
    private static final int TIME_OFFSET = 0;
    private static final int SESSION_OFFSET = 8;
    private static final int FULL_LENGTH_OFFSET = 12;
    private static final int BYTES_OFFSET = 16;
    private static final int LINES_PER_WORK = 1024;

    private final Path directory;
    private final FieldDelimiter delimiter;
    private final OneToOneRingBuffer ring;
    private final int maxLoggedLength;
    private final AgentRunner runner;
    /** Copy on write: appended on the thread that adds sessions, read by the writer thread. */
    private volatile SessionLogFile[] files = new SessionLogFile[0];
    private volatile boolean closed;
    private long ringFullWaits;

    /**
     * @param bufferSize bytes of the ring, a power of two of at least {@link #MIN_BUFFER_SIZE}; a message
     *                   longer than an eighth of it is logged truncated, with the number of bytes left out
     */
    public MessageLogWriter(final Path directory, final FieldDelimiter delimiter, final int bufferSize)
    {
        if (bufferSize < MIN_BUFFER_SIZE || Integer.bitCount(bufferSize) != 1)
        {
            throw new IllegalArgumentException("message log buffer: " + bufferSize + " bytes is not a power of two of at least "
                + MIN_BUFFER_SIZE);
        }
        this.directory = SessionLogFile.createDirectory(directory);
        this.delimiter = delimiter;
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(bufferSize + RingBufferDescriptor.TRAILER_LENGTH)));
        this.maxLoggedLength = ring.maxMsgLength() - BYTES_OFFSET;
        // Sleeps a whole millisecond whenever the ring is dry, never spins or backs off in microsecond steps: on a
        // machine with few cores a thread waking up every few microseconds takes the CPU from the engine threads
        // (a backoff strategy here put 140 us on balanced's closed-loop round trip on 2 cores). The ring holds
        // far more than a millisecond of messages.
        this.runner = new AgentRunner(new SleepingIdleStrategy(TimeUnit.MILLISECONDS.toNanos(1)),
            ex -> LOGGER.warn("message log writer: {}", ex.toString()), null, new Drain());
        AgentRunner.startOnThread(runner);
    }

    @Override
    public synchronized MessageLog forSession(final SessionId id)
    {
        final SessionLogFile file = SessionLogFile.open(directory, id, delimiter);
        final SessionLogFile[] grown = Arrays.copyOf(files, files.length + 1);
        grown[files.length] = file;
        files = grown;
        final int index = files.length - 1;
        return (buffer, offset, length, epochNanos) -> append(index, buffer, offset, length, epochNanos);
    }

    /** On the engine thread: copy the message into the ring (waiting for room if the writer is behind). */
    private void append(final int session, final DirectBuffer buffer, final int offset, final int length, final long epochNanos)
    {
        final int logged = Math.min(length, maxLoggedLength);
        int index;
        while ((index = ring.tryClaim(MESSAGE, BYTES_OFFSET + logged)) < 0)
        {
            if (closed)
            {
                return;
            }
            ringFullWaits++;
            Thread.onSpinWait();
        }
        final MutableDirectBuffer record = ring.buffer();
        record.putLong(index + TIME_OFFSET, epochNanos);
        record.putInt(index + SESSION_OFFSET, session);
        record.putInt(index + FULL_LENGTH_OFFSET, length);
        record.putBytes(index + BYTES_OFFSET, buffer, offset, logged);
        ring.commit(index);
    }

    /** How often the engine thread found the ring full and waited (read it after close for an exact figure). */
    public long ringFullWaits()
    {
        return ringFullWaits;
    }

    @Override
    public long linesLost()
    {
        long lost = 0;
        for (final SessionLogFile file : files)
        {
            lost += file.linesLost();
        }
        return lost;
    }

    /** The writer thread, for tests that count its allocation. */
    public Thread writerThread()
    {
        return runner.thread();
    }

    @Override
    public void close()
    {
        closed = true;
        runner.close();
    }

    /** The writer thread's duty cycle: format what the ring holds; hand it to the files when the ring runs dry. */
    private final class Drain implements Agent
    {
        private final MessageHandler onRecord = (msgTypeId, buffer, index, length) ->
        {
            final SessionLogFile[] current = files;
            current[buffer.getInt(index + SESSION_OFFSET)].append(buffer, index + BYTES_OFFSET, length - BYTES_OFFSET,
                buffer.getInt(index + FULL_LENGTH_OFFSET), buffer.getLong(index + TIME_OFFSET));
        };

        @Override
        public int doWork()
        {
            final int lines = ring.read(onRecord, LINES_PER_WORK);
            if (lines == 0)
            {
                for (final SessionLogFile file : files)
                {
                    if (file.hasBuffered())
                    {
                        file.writeOut();
                    }
                }
            }
            return lines;
        }

        @Override
        public void onClose()
        {
            // the last messages, e.g. the Logout exchanged while the engine closed; read() returns 0 when it
            // only skips the padding at the end of the ring, so the test is whether anything is left
            while (ring.size() > 0)
            {
                ring.read(onRecord, LINES_PER_WORK);
            }
            for (final SessionLogFile file : files)
            {
                file.close();
            }
        }

        @Override
        public String roleName()
        {
            return "fixlab-message-log";
        }
    }
}
