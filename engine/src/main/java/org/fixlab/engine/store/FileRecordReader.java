package org.fixlab.engine.store;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads and validates {@link RecordDescriptor} records of a body file through one reusable direct
 * window, so that scanning the file on open and replaying a range cost one read per window rather
 * than two per record, and nothing is allocated unless a record is larger than the window.
 */
final class FileRecordReader
{
    private static final int INITIAL_WINDOW_BYTES = 64 * 1024;

    private final ReopeningFileChannel file;
    private final Crc32cRange crc;
    private UnsafeBuffer window = new UnsafeBuffer(ByteBuffer.allocateDirect(INITIAL_WINDOW_BYTES));
    private long windowStart;
    private int windowLength;

    FileRecordReader(final ReopeningFileChannel file, final Crc32cRange crc)
    {
        this.file = file;
        this.crc = crc;
    }

    /**
     * Loads the record at {@code position} into the window and validates it.
     *
     * @param dataEnd where the file's data ends: a record must end at or before it.
     * @return the record's length, or {@link RecordDescriptor#INVALID} if no complete, intact record starts there.
     */
    int load(final long position, final long dataEnd)
    {
        final long available = dataEnd - position;
        if (available < RecordDescriptor.HEADER_LENGTH || !ensureLoaded(position, RecordDescriptor.HEADER_LENGTH))
        {
            return RecordDescriptor.INVALID;
        }
        final int announced = RecordDescriptor.announcedLength(window, offsetOf(position), available);
        if (announced == RecordDescriptor.INVALID || !ensureLoaded(position, announced))
        {
            return RecordDescriptor.INVALID;
        }
        return RecordDescriptor.validLength(window, offsetOf(position), available, crc);
    }

    /** The buffer holding the record last loaded, valid until the next {@link #load}. */
    UnsafeBuffer window()
    {
        return window;
    }

    /** Where the record at {@code position}, just loaded, starts in {@link #window()}. */
    int offsetOf(final long position)
    {
        return (int)(position - windowStart);
    }

    /** Forgets what the window holds: the file was truncated. */
    void invalidate()
    {
        windowStart = 0;
        windowLength = 0;
    }

    private boolean ensureLoaded(final long position, final int length)
    {
        if (position >= windowStart && position + length <= windowStart + windowLength)
        {
            return true;
        }
        if (length > window.capacity())
        {
            window = new UnsafeBuffer(ByteBuffer.allocateDirect(Integer.highestOneBit(length - 1) << 1));
        }
        final ByteBuffer bytes = window.byteBuffer();
        bytes.clear();
        windowStart = position;
        windowLength = 0;
        int read;
        while (bytes.hasRemaining() && (read = file.read(bytes, position + windowLength)) > 0)
        {
            windowLength += read;
        }
        return windowLength >= length;
    }
}
