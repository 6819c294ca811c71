package org.fixlab.engine.messagelog;

import static org.agrona.UnsafeAccess.UNSAFE;
import static org.fixlab.engine.codec.ByteWords.HIGH_BITS;
import static org.fixlab.engine.codec.ByteWords.LOW_SEVEN_BITS;
import static org.fixlab.engine.codec.ByteWords.ONES;
import static org.fixlab.engine.codec.ByteWords.equalBytes;

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
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.TimestampCache;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.session.SessionId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's {@code .messages.log}: lines of {@code yyyyMMdd-HH:mm:ss.SSSSSS: 8=FIX.4.4...}, as
 * QuickFIX/J's FileLog writes them (with microseconds), appended to what earlier runs wrote. Used by one
 * thread at a time (the engine thread or the log's writer thread), through a buffer of its own:
 * garbage-free once the buffer has grown to the session's rate (see {@link #writeFullBuffer}), one write
 * call per buffer-full or when its writer hands lines over (all of them, or a piece of whole lines). A
 * file that fails (disk full, removed folder) stops logging with one warning and counts what it could not
 * write; the engine is never held up by it.
 */
final class SessionLogFile implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(MessageLogWriter.class);
    /** What a session's buffer starts at, and the most it grows to (see {@link #writeFullBuffer}). */
    static final int INITIAL_BUFFER_SIZE = 64 * 1024;
    static final int MAX_BUFFER_SIZE = 1024 * 1024;
    /** The widest thing appended without a check in between: a timestamp and ": ", or an escape. */
    private static final int MAX_STEP = 32;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] NOT_LOGGED = " [message truncated in the log: ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] BYTES_MORE = " more bytes]".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final Path path;
    private final FileChannel channel;
    private final FieldDelimiter delimiter;
    private ByteBuffer out = ByteBuffer.allocateDirect(INITIAL_BUFFER_SIZE);
    /** The same memory as {@link #out}, for bulk copies; positions are kept by {@link #out}. */
    private final UnsafeBuffer outView = new UnsafeBuffer(out);
    private long outAddress = outView.addressOffset();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[MAX_STEP]);
    /** The date and time to the second change once a second: formatted then, copied for every line. */
    private final TimestampCache timestamps = new TimestampCache(TimestampPrecision.MICROS);
    private IOException failure;
    private long linesLost;
    /** Where the bytes not yet handed to the file start: what comes before is in the file. */
    private int handedOver;
    /** Bytes handed to the file (or lost with a failed file) since it was opened, this buffer's included. */
    private long bytesHandedOver;
    /** Whether a line is being appended: a failed write loses it too. */
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
        if (delimiter == FieldDelimiter.SOH && appendedWhole(source, offset, length, fullLength, epochNanos))
        {
            return;
        }
        lineOpen = true;
        room(MAX_STEP);
        out.position(out.position() + timestamps.encode(outView, out.position(), epochNanos));
        out.put((byte)':').put((byte)' ');
        // runs of bytes that stand for themselves are copied whole; only the bytes between them are looked at alone
        int i = delimiter == FieldDelimiter.PIPE ? copyPlainWordsWithPipes(source, offset, length) : 0;
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
    }

    /**
     * The common case with SOH kept, a whole message with no byte to escape (every well-formed one) and room for its
     * line: the line written after one test of room, the message copied in one go and then tested all together
     * ({@link #anyEscaped}), with no store and no branch per word. Returns false, the buffer's position unchanged, for
     * the rest (a byte to escape, a truncated or short message, a buffer nearly full): the run-by-run loop writes the
     * line then, from the same place. make jmh MessageLogBenchmark soh, the stream's order, two runs of two JVMs each,
     * one after the other: 124 and 127 ns a line with a test of room and a ByteBuffer put for each part of it, 103 and
     * 97 ns this way.
     */
    private boolean appendedWhole(final DirectBuffer source, final int offset, final int length, final int fullLength,
        final long epochNanos)
    {
        final int position = out.position();
        if (length < Long.BYTES || length != fullLength || out.limit() - position < MAX_STEP + length + 1)
        {
            return false;
        }
        source.boundsCheck(offset, length);
        final byte[] fromArray = source.byteArray();
        final long from = source.addressOffset() + offset;
        final int prefix = timestamps.encode(outView, position, epochNanos);
        final long to = outAddress + position + prefix;
        UNSAFE.putByte(to, (byte)':');
        UNSAFE.putByte(to + 1, (byte)' ');
        UNSAFE.copyMemory(fromArray, from, null, to + 2, length);
        if (anyEscaped(fromArray, from, length))
        {
            return false;
        }
        UNSAFE.putByte(to + 2 + length, (byte)'\n');
        out.position(position + prefix + 2 + length + 1);
        return true;
    }

    /**
     * The common case with the pipe delimiter, a message with no byte to escape, copied whole: eight bytes are
     * loaded, tested and stored at a time while none needs an escape (SOH is replaced in the same word), then the
     * last few bytes as the word that ends with them, overlapping bytes already copied. Returns how many bytes were
     * copied, for the run-by-run loop to go on from: none when the buffer cannot take the message and a word beyond it.
     */
    private int copyPlainWordsWithPipes(final DirectBuffer source, final int offset, final int length)
    {
        final int position = out.position();
        if (length < Long.BYTES || out.limit() - position < length + Long.BYTES)
        {
            return 0;
        }
        source.boundsCheck(offset, length);
        final byte[] fromArray = source.byteArray();
        final long from = source.addressOffset() + offset;
        final long to = outAddress + position;
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES)
        {
            final long word = loadWord(fromArray, from + i);
            final long soh = equalBytes(word, Fix.SOH);
            if (escapedBytes(word, soh, true) != 0)
            {
                out.position(position + i);
                return i;
            }
            storeWord(to + i, withPipes(word, soh));
        }
        if (i < length)
        {
            final int last = length - Long.BYTES;
            final long word = loadWord(fromArray, from + last);
            final long soh = equalBytes(word, Fix.SOH);
            final long notYetCopied = -1L << ((i - last) << 3);
            if ((escapedBytes(word, soh, true) & notYetCopied) != 0)
            {
                out.position(position + i);
                return i;
            }
            storeWord(to + last, withPipes(word, soh));
        }
        out.position(position + length);
        return length;
    }

    /**
     * Whether any of {@code length} (at least eight) bytes is written escaped when SOH is kept: non-ASCII, DEL, a
     * backslash, a control byte but SOH. The flags of each word ({@link #escapeFlags}) are gathered in one word and
     * tested once at the end; the last word overlaps the one before it. make jmh MessageLogBenchmark, the stream's
     * order with SOH kept: 98 ns a line with a test and a store per word in one loop, 71 ns copied then tested (two
     * JVMs each); 60 -> 37 ns (three JVMs each, twice, one version after the other) with the overlapping last word
     * read first, outside the loop (it was a Math.min and an exit test in every turn), and each word's test in 12
     * operations where it took 17.
     */
    private static boolean anyEscaped(final byte[] array, final long address, final int length)
    {
        final int lastWord = length - Long.BYTES;
        long flags = escapeFlags(UNSAFE.getLong(array, address + lastWord));
        for (int i = 0; i < lastWord; i += Long.BYTES)
        {
            flags |= escapeFlags(UNSAFE.getLong(array, address + i));
        }
        return (flags & HIGH_BITS) != 0;
    }

    /**
     * A high bit set when a byte of {@code word} is written escaped with SOH kept, right for the word as a whole
     * though not byte by byte: a carry or a borrow between bytes starts only at a byte that is flagged itself (one
     * of 0x80 and above for the sums, a backslash for the difference), so a word has a flag if and only if it has
     * such a byte. With every byte below 0x80 nothing carries, and each high bit is the byte's own: {@code b + 1}
     * has it at DEL only, {@code (b ^ 1) + 0x7F} everywhere but at SOH, {@code b + 0x60} from space up (its
     * complement below space), and {@code (b ^ '\\') - 1} under {@code ~(b ^ '\\')} at a backslash only, the one
     * place it borrows.
     */
    private static long escapeFlags(final long word)
    {
        final long notBackslash = word ^ (ONES * '\\');
        return word
            | (word + ONES)
            | (((word ^ ONES) + LOW_SEVEN_BITS) & ~(word + ONES * (0x80 - 0x20)))
            | ((notBackslash - ONES) & ~notBackslash);
    }

    /**
     * Where the run of plain bytes starting at {@code from} ends: eight bytes at a time, with per-byte tests that
     * never carry into the next byte (so the lowest flag is the first byte to escape), then byte by byte.
     */
    private int endOfPlainRun(final DirectBuffer source, final int offset, final int from, final int length)
    {
        final boolean pipe = delimiter == FieldDelimiter.PIPE;
        int run = from;
        while (length - run >= 8)
        {
            final long word = source.getLong(offset + run, ByteOrder.LITTLE_ENDIAN);
            final long soh = equalBytes(word, Fix.SOH);
            // in this loop a SOH to be written as '|' is one more byte for escaped() to write
            final long special = escapedBytes(word, soh, pipe) | (pipe ? soh : 0);
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

    /**
     * The high bit of each byte of {@code word} that is never written as it is: non-ASCII, DEL, a backslash, a control
     * byte but SOH ({@code soh} marks those), and with the pipe delimiter a '|' of the message itself.
     */
    private static long escapedBytes(final long word, final long soh, final boolean pipe)
    {
        final long nonAsciiOrDel = (((word & LOW_SEVEN_BITS) + ONES) | word) & HIGH_BITS; // 0x7F and 0xFF overflow to the high bit
        final long control = ~((word & LOW_SEVEN_BITS) + ONES * (0x80 - 0x20)) & ~word & HIGH_BITS; // below 0x20
        final long special = nonAsciiOrDel | (control & ~soh) | equalBytes(word, '\\');
        return pipe ? special | equalBytes(word, '|') : special;
    }

    /** The word with each SOH byte (marked in {@code soh}) replaced by '|'. */
    private static long withPipes(final long word, final long soh)
    {
        return word ^ (soh >>> 7) * (0x01 ^ '|');
    }

    /** Eight bytes, the first in the lowest byte on every platform. */
    private static long loadWord(final byte[] array, final long address)
    {
        final long word = UNSAFE.getLong(array, address);
        return LITTLE_ENDIAN ? word : Long.reverseBytes(word);
    }

    private static void storeWord(final long address, final long word)
    {
        UNSAFE.putLong(address, LITTLE_ENDIAN ? word : Long.reverseBytes(word));
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
                writeFullBuffer();
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
            writeFullBuffer();
        }
    }

    /**
     * Writes a buffer that filled up before its writer handed it over, and replaces it with one of
     * {@link #MAX_BUFFER_SIZE}: a session that logs more than 64 KiB between two writes of its writer (10 ms on the
     * engine thread) gets fewer, longer writes, which ext4 takes for less CPU a byte, while the many quiet sessions of an
     * acceptor keep 64 KiB each. Balanced's throughput stream (message log on, memory store; engine-jar A/B, nothing else
     * running): 1.49M -> 1.74M orders a second with 256 KiB (17 of 20 pairs faster), 1 MiB another 5% (10 of 12).
     *
     * <p>One step, once in the life of the session: a new direct buffer is 136 bytes on the heap (the buffer, its
     * cleaner and deallocator), made on the engine thread. Doubling up to the most made four of them, the last whenever a
     * 10 ms stretch first held more than 512 KiB of lines, which in a closed-loop round trip on {@code balanced} could be
     * seconds into the run (JFR, 136 bytes inside the measured window in some runs on Java 17 and 25).
     */
    private void writeFullBuffer()
    {
        writeOut();
        if (out.capacity() < MAX_BUFFER_SIZE && failure == null)
        {
            out = ByteBuffer.allocateDirect(MAX_BUFFER_SIZE);
            outView.wrap(out);
            outAddress = outView.addressOffset();
        }
    }

    /**
     * Hands what is buffered to the file (the OS page cache: it survives a crash of the process, not of the machine).
     * The pages are left to the kernel's writeback. Sending each 8 MiB to the disk at once ({@code sync_file_range})
     * and dropping it from the cache 32 MiB behind ({@code posix_fadvise}), so that new lines reuse pages just freed,
     * made balanced's stream slower (1.83M against 1.93M orders a second, medians of 10 pairs of runs): the disk
     * writes, and the kernel's work to finish them, then fall on the run's CPUs.
     */
    void writeOut()
    {
        handOver(out.position());
    }

    /**
     * Hands over the oldest lines, whole, up to about {@code maxBytes} of them: as many as end within that many bytes,
     * or the first line alone if it is longer. What stays goes on a later call. So a writer on the engine thread can
     * spread a buffer over several duty cycles: the write of new page-cache pages takes its time per byte, and a
     * message that arrives meanwhile waits for one piece, not for the buffer.
     */
    void writeSome(final int maxBytes)
    {
        final int filled = out.position();
        final int limit = handedOver + maxBytes;
        if (limit >= filled)
        {
            handOver(filled);
            return;
        }
        int upTo = limit;
        while (upTo > handedOver && outView.getByte(upTo - 1) != '\n')
        {
            upTo--;
        }
        if (upTo == handedOver)
        {
            upTo = limit;
            while (upTo < filled && outView.getByte(upTo - 1) != '\n')
            {
                upTo++;
            }
        }
        handOver(upTo);
    }

    /** Writes the buffer from {@link #handedOver} up to {@code upTo}; the buffer is empty again once all of it is written. */
    private void handOver(final int upTo)
    {
        final int filled = out.position();
        out.limit(upTo).position(handedOver);
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
            // the lines whose end was not written, and one being appended, are not in the file (or not whole)
            linesLost += linesBetween(out.position(), filled) + (lineOpen ? 1 : 0);
            LOGGER.warn("message log {} failed, no more messages are logged to it: {}", path, ex.toString());
        }
        bytesHandedOver += upTo - handedOver;
        if (upTo == filled || failure != null)
        {
            out.clear();
            handedOver = 0;
        }
        else
        {
            out.limit(out.capacity()).position(filled);
            handedOver = upTo;
        }
    }

    /** The line ends between two offsets of the buffer: a line holds no other line feed, every control byte is escaped. */
    private int linesBetween(final int from, final int to)
    {
        int lines = 0;
        for (int i = from; i < to; i++)
        {
            if (outView.getByte(i) == '\n')
            {
                lines++;
            }
        }
        return lines;
    }

    /** Bytes left in the buffer (for benchmarks). */
    int remaining()
    {
        return out.remaining();
    }

    /** The buffer's size now (for tests). */
    int bufferSize()
    {
        return out.capacity();
    }

    /** Drops what is buffered without writing it (for benchmarks of the formatting alone). */
    void discardBuffered()
    {
        bytesHandedOver += out.position() - handedOver;
        handedOver = 0;
        out.clear();
    }

    boolean hasBuffered()
    {
        return out.position() > handedOver;
    }

    /** Bytes of lines appended since the file was opened: a count that only grows, for a writer to mark a place by. */
    long bytesLogged()
    {
        return bytesHandedOver + out.position() - handedOver;
    }

    /** Bytes handed to the file since it was opened, on the same count as {@link #bytesLogged}. */
    long bytesHandedOver()
    {
        return bytesHandedOver;
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
