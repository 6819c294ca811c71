package org.fixlab.engine.messagelog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.TimestampCache;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.session.SessionId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's {@code .messages.log}: lines of {@code yyyyMMdd-HH:mm:ss.SSSSSS: 8=FIX.4.4...}, as
 * QuickFIX/J's FileLog writes them (with microseconds), appended to what earlier runs wrote. Used by one
 * thread at a time (the engine thread or the log's writer thread), through a buffer of its own:
 * garbage-free, one write call per buffer-full or when its writer hands the lines over. A file that
 * fails (disk full, removed folder) stops logging with one warning and counts what it could not write;
 * the engine is never held up by it.
 */
final class SessionLogFile implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(MessageLogWriter.class);
    private static final int BUFFER_SIZE = 64 * 1024;
    /** The widest thing appended without a check in between: a timestamp and ": ", or an escape. */
    private static final int MAX_STEP = 32;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] NOT_LOGGED = " [message truncated in the log: ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] BYTES_MORE = " more bytes]".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    // eight bytes at a time (see endOfPlainRun)
    private static final long ONES = 0x0101010101010101L;
    private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private final Path path;
    private final FileChannel channel;
    private final FieldDelimiter delimiter;
    private final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER_SIZE);
    /** The same memory as {@link #out}, for bulk copies; positions are kept by {@link #out}. */
    private final UnsafeBuffer outView = new UnsafeBuffer(out);
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[MAX_STEP]);
    /** The date and time to the second change once a second: formatted then, copied for every line. */
    private final TimestampCache timestamps = new TimestampCache(TimestampPrecision.MICROS);
    private IOException failure;
    private long linesLost;
    /** Whole lines in the buffer, and whether one is being appended: what a failed write loses. */
    private int linesBuffered;
    private boolean lineOpen;

    /** The log's directory, created if missing. */
    static Path createDirectory(final Path directory)
    {
        try
        {
            return Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the message log directory " + directory + ": " + ex.getMessage(), ex);
        }
    }

    /** Opens (or appends to) the session's file in {@code directory}. */
    static SessionLogFile open(final Path directory, final SessionId id, final FieldDelimiter delimiter)
    {
        final Path path = directory.resolve(fileName(id));
        try
        {
            return new SessionLogFile(path, delimiter);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the message log " + path + ": " + ex.getMessage(), ex);
        }
    }

    /** QuickFIX/J's name for a session's files; a character a file name cannot hold becomes '_'. */
    static String fileName(final SessionId id)
    {
        return id.key().replaceAll("[^A-Za-z0-9._+-]", "_") + ".messages.log";
    }

    SessionLogFile(final Path path, final FieldDelimiter delimiter) throws IOException
    {
        this.path = path;
        this.delimiter = delimiter;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    Path path()
    {
        return path;
    }

    /** Formats one message as a line; {@code length} bytes are at hand, {@code fullLength} is what the message had. */
    void append(final DirectBuffer source, final int offset, final int length, final int fullLength, final long epochNanos)
    {
        if (failure != null)
        {
            linesLost++;
            return;
        }
        lineOpen = true;
        room(MAX_STEP);
        out.position(out.position() + timestamps.encode(outView, out.position(), epochNanos));
        out.put((byte)':').put((byte)' ');
        // runs of bytes that stand for themselves are copied whole; only the bytes between them are looked at alone
        int i = copyPlainWords(source, offset, length);
        while (i < length)
        {
            final int run = endOfPlainRun(source, offset, i, length);
            copy(source, offset + i, run - i);
            i = run;
            if (i < length)
            {
                room(4);
                escaped(source.getByte(offset + i) & 0xFF);
                i++;
            }
        }
        if (fullLength > length)
        {
            room(NOT_LOGGED.length + 12 + BYTES_MORE.length);
            out.put(NOT_LOGGED);
            put(scratch, scratch.putIntAscii(0, fullLength - length));
            out.put(BYTES_MORE);
        }
        room(1);
        out.put((byte)'\n');
        lineOpen = false;
        linesBuffered++;
    }

    /**
     * The common case in one pass: eight bytes are loaded, tested and stored at a time while none of them needs an
     * escape (a well-formed message has none with the SOH delimiter), instead of a scan and then a copy. Stops at the
     * first word that holds a byte to escape, at the last whole word, or at once if the buffer cannot take the message
     * and a word beyond it; returns how many bytes were copied, for the run-by-run loop to go on from.
     */
    private int copyPlainWords(final DirectBuffer source, final int offset, final int length)
    {
        if (out.remaining() < length + Long.BYTES)
        {
            return 0;
        }
        int position = out.position();
        int i = 0;
        while (length - i >= Long.BYTES)
        {
            final long word = source.getLong(offset + i, ByteOrder.LITTLE_ENDIAN);
            if (special(word) != 0)
            {
                break;
            }
            outView.putLong(position, word, ByteOrder.LITTLE_ENDIAN);
            position += Long.BYTES;
            i += Long.BYTES;
        }
        out.position(position);
        return i;
    }

    /**
     * Where the run of plain bytes starting at {@code from} ends: eight bytes at a time, with per-byte tests that
     * never carry into the next byte (so the lowest flag is the first byte to escape), then byte by byte.
     */
    private int endOfPlainRun(final DirectBuffer source, final int offset, final int from, final int length)
    {
        int run = from;
        while (length - run >= 8)
        {
            final long special = special(source.getLong(offset + run, ByteOrder.LITTLE_ENDIAN));
            if (special != 0)
            {
                return run + (Long.numberOfTrailingZeros(special) >>> 3);
            }
            run += 8;
        }
        while (run < length && isPlain(source.getByte(offset + run) & 0xFF))
        {
            run++;
        }
        return run;
    }

    /** The high bit of each byte of {@code word} that is not plain (see {@link #isPlain}). */
    private long special(final long word)
    {
        final long nonAscii = word & HIGH_BITS;
        final long control = ~((word & LOW_BITS) + ONES * (0x80 - 0x20)) & ~word & HIGH_BITS; // below 0x20
        long special = nonAscii | equal(word, 0x7F) | equal(word, '\\');
        if (delimiter == FieldDelimiter.SOH)
        {
            special |= control & ~equal(word, 0x01);
        }
        else
        {
            special |= control | equal(word, '|');
        }
        return special;
    }

    /** The high bit of each byte of {@code word} equal to {@code value}, exactly (no borrow between bytes). */
    private static long equal(final long word, final int value)
    {
        final long zeroWhereEqual = word ^ (ONES * value);
        return ~(((zeroWhereEqual & LOW_BITS) + LOW_BITS) | zeroWhereEqual) & HIGH_BITS;
    }

    /** A byte written as it is: printable ASCII but the backslash (and the pipe when it stands for SOH), or SOH when SOH stays. */
    private boolean isPlain(final int b)
    {
        return b >= 0x20 && b <= 0x7E ? b != '\\' && (b != '|' || delimiter != FieldDelimiter.PIPE)
            : b == 0x01 && delimiter == FieldDelimiter.SOH;
    }

    /** Copies bytes that need no escape, through the buffer in pieces if they do not fit at once. */
    private void copy(final DirectBuffer source, final int from, final int length)
    {
        int done = 0;
        while (done < length)
        {
            if (!out.hasRemaining())
            {
                writeOut();
            }
            final int piece = Math.min(length - done, out.remaining());
            outView.putBytes(out.position(), source, from + done, piece);
            out.position(out.position() + piece);
            done += piece;
        }
    }

    private void escaped(final int b)
    {
        if (b == 0x01)
        {
            out.put(delimiter.written());
        }
        else if (b == '\\')
        {
            out.put((byte)'\\').put((byte)'\\');
        }
        else if (b < 0x20 || b > 0x7E || (b == '|' && delimiter == FieldDelimiter.PIPE))
        {
            out.put((byte)'\\').put((byte)'x').put(HEX[b >>> 4]).put(HEX[b & 0xF]);
        }
        else
        {
            out.put((byte)b);
        }
    }

    private void put(final UnsafeBuffer from, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            out.put(from.getByte(i));
        }
    }

    private void room(final int bytes)
    {
        if (out.remaining() < bytes)
        {
            writeOut();
        }
    }

    /** Hands what is buffered to the file (the OS page cache: it survives a crash of the process, not of the machine). */
    void writeOut()
    {
        out.flip();
        try
        {
            while (out.hasRemaining() && failure == null)
            {
                channel.write(out);
            }
        }
        catch (final IOException ex)
        {
            failure = ex;
            // the buffer's lines, and one it was in the middle of, are not in the file (or not whole)
            linesLost += linesBuffered + (lineOpen ? 1 : 0);
            LOGGER.warn("message log {} failed, no more messages are logged to it: {}", path, ex.toString());
        }
        linesBuffered = 0;
        out.clear();
    }

    boolean hasBuffered()
    {
        return out.position() > 0;
    }

    /** Messages not in the file because it failed: those in the buffer whose write failed, and every one after. */
    long linesLost()
    {
        return linesLost;
    }

    @Override
    public void close()
    {
        writeOut();
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            LOGGER.warn("message log {}: close failed: {}", path, ex.toString());
        }
        if (linesLost > 0)
        {
            LOGGER.warn("message log {}: {} messages not logged because of the failure", path, linesLost);
        }
    }
}
