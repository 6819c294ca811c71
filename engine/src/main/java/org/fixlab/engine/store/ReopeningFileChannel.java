package org.fixlab.engine.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A read-write {@link FileChannel} on one file that survives the interrupt of the thread using it.
 *
 * <p>A FileChannel closes itself for good when its thread is interrupted during I/O. QuickFIX/J's
 * FileStore keeps using such a channel and fails every later write ("Stream Closed") until the
 * process restarts. Here the operation that saw {@link ClosedByInterruptException} reopens the file
 * and retries once with the interrupt flag cleared, then restores the flag for the owner to act on.
 * Writes are positional, so a retried write simply overwrites what the interrupted one left.
 *
 * <p>I/O failures surface as {@link UncheckedIOException} naming the file: a store cannot recover
 * from them and the session has to stop.
 */
final class ReopeningFileChannel implements AutoCloseable
{
    @FunctionalInterface
    private interface Operation
    {
        long apply(FileChannel channel, ByteBuffer buffer, long position) throws IOException;
    }

    private static final Operation READ = FileChannel::read;
    private static final Operation WRITE_FULLY = (channel, buffer, position) ->
    {
        for (long at = position; buffer.hasRemaining(); )
        {
            at += channel.write(buffer, at);
        }
        return 0;
    };
    private static final Operation SIZE = (channel, buffer, position) -> channel.size();
    private static final Operation TRUNCATE = (channel, buffer, size) ->
    {
        channel.truncate(size);
        return 0;
    };
    private static final Operation FORCE = (channel, buffer, position) ->
    {
        channel.force(false);
        return 0;
    };

    private final Path path;
    private FileChannel channel;
    private long mapLength;
    private MappedByteBuffer mapped;

    /**
     * Maps the region {@link #map} asks for into {@link #mapped}, first growing the file to hold it ({@link #grow}).
     */
    private final Operation mapRegion = (channel, lastByte, position) ->
    {
        grow(channel, lastByte, position + mapLength);
        mapped = channel.map(FileChannel.MapMode.READ_WRITE, position, mapLength);
        return 0;
    };
    /** As {@link #mapRegion} for {@link #mapPages}: returns the mapping's address. */
    private final Operation mapPagesRegion = (channel, lastByte, position) ->
    {
        grow(channel, lastByte, position + mapLength);
        return JdkMmap.map(channel, position, mapLength);
    };
    private final ByteBuffer zeroByte = ByteBuffer.allocateDirect(1);

    ReopeningFileChannel(final Path path)
    {
        this.path = path;
        this.channel = openChannel();
    }

    Path path()
    {
        return path;
    }

    /** @return bytes read, or -1 at the end of the file (as {@link FileChannel#read(ByteBuffer, long)}). */
    int read(final ByteBuffer buffer, final long position)
    {
        return (int)run(READ, "read", buffer, position);
    }

    void writeFully(final ByteBuffer buffer, final long position)
    {
        run(WRITE_FULLY, "write", buffer, position);
    }

    long size()
    {
        return run(SIZE, "read the size of", null, 0);
    }

    void truncate(final long size)
    {
        run(TRUNCATE, "truncate", null, size);
    }

    /** Maps {@code length} bytes from {@code position} read-write, growing the file to hold them with zeros. */
    MappedByteBuffer map(final long position, final int length)
    {
        mapLength = length;
        run(mapRegion, "map", zeroByte, position);
        final MappedByteBuffer mapping = mapped;
        mapped = null;
        return mapping;
    }

    /**
     * As {@link #map}, with {@link JdkMmap} when it is available: no object for the mapping, which
     * {@link #unmapPages} undoes.
     *
     * @param pagePosition a multiple of the page size.
     * @return the address of the byte at {@code pagePosition}.
     */
    long mapPages(final long pagePosition, final long length)
    {
        mapLength = length;
        return run(mapPagesRegion, "map", zeroByte, pagePosition);
    }

    /** Unmaps what {@link #mapPages} mapped. */
    void unmapPages(final long address, final long length)
    {
        JdkMmap.unmap(channel, address, length);
    }

    /** Forces file content (and the size, which reading it back needs) to the storage device. */
    void force()
    {
        run(FORCE, "force", null, 0);
    }

    /**
     * Grows the file to {@code end} bytes, if it is shorter, by writing its last byte: mapping past the end is
     * unspecified, and the bytes between read as zeros. The file's own channel does it, where a RandomAccessFile
     * opened for each window cost a file descriptor, its system calls and 0.6 KB of garbage.
     */
    private static void grow(final FileChannel channel, final ByteBuffer lastByte, final long end) throws IOException
    {
        if (channel.size() < end)
        {
            lastByte.clear();
            while (lastByte.hasRemaining())
            {
                channel.write(lastByte, end - 1);
            }
        }
    }

    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("failed to close " + path, ex);
        }
    }

    private long run(final Operation operation, final String what, final ByteBuffer buffer, final long position)
    {
        final int bufferStart = null == buffer ? 0 : buffer.position();
        try
        {
            return operation.apply(channel, buffer, position);
        }
        catch (final ClosedByInterruptException ex)
        {
            final boolean interrupted = Thread.interrupted();
            try
            {
                channel = openChannel();
                if (null != buffer)
                {
                    buffer.position(bufferStart);
                }
                return operation.apply(channel, buffer, position);
            }
            catch (final IOException retryFailure)
            {
                retryFailure.addSuppressed(ex);
                throw new UncheckedIOException("failed to " + what + " " + path + " after reopening it", retryFailure);
            }
            finally
            {
                if (interrupted)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("failed to " + what + " " + path, ex);
        }
    }

    private FileChannel openChannel()
    {
        try
        {
            return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open " + path + " for reading and writing: check the directory " +
                "exists and is writable", ex);
        }
    }
}
