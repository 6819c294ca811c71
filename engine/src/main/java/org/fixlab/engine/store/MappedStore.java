package org.fixlab.engine.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A store in one memory-mapped file, {@code <sessionKey>.mapped}: a message is stored with a memory
 * copy and no system call, so it survives a process crash as soon as storeSent returns.
 *
 * <pre>
 *   0   64 bytes   {@link SequenceNumberSlots}
 *   64  ...        {@link RecordDescriptor} records, then zeros to the end of the file
 * </pre>
 *
 * <p>Recovery is {@link FileStore}'s: opening scans the records, cuts off the first one that does
 * not validate and everything after it (a torn write, or pages a power loss never wrote), and moves
 * the next sender seqNum past the highest stored one. The file grows, and is remapped, in steps of
 * {@link StoreOptions#mappedChunkBytes()}; a mapping is limited to 2 GiB, so a session that stores
 * more between two resets needs {@link FileStore}.
 *
 * <p>Steady state is garbage-free; growing allocates one mapping and touches each new page once, so
 * that storeSent does not take the page faults. Not thread-safe.
 */
public final class MappedStore extends PersistentStore
{
    public static final String FILE_SUFFIX = ".mapped";

    static final int RECORDS_OFFSET = SequenceNumberSlots.LENGTH;

    private static final int MAX_MAPPING_BYTES = Integer.MAX_VALUE;
    private static final int PAGE_BYTES = 4096;

    private final Path file;
    private final int chunkBytes;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private MappedByteBuffer mapping;
    private int dataEnd = RECORDS_OFFSET;
    private int unforcedFrom = RECORDS_OFFSET;

    private MappedStore(final Path file, final StoreOptions options)
    {
        super("MappedStore " + file, options);
        if (options.mappedChunkBytes() < PAGE_BYTES)
        {
            throw new IllegalArgumentException("mapped chunk must be at least " + PAGE_BYTES + " bytes, got " +
                options.mappedChunkBytes());
        }
        this.file = file;
        chunkBytes = options.mappedChunkBytes();
    }

    /** Opens, or creates, the session's file in {@code dir} and recovers its content. */
    public static MappedStore open(final Path dir, final String sessionKey, final StoreOptions options)
    {
        return recovered(new MappedStore(StoreFiles.resolve(dir, sessionKey, FILE_SUFFIX), options));
    }

    @Override
    public void storeSent(final int seqNum, final DirectBuffer message, final int offset, final int length)
    {
        checkOpen();
        StoreChecks.checkMessage(seqNum, length, MAX_MAPPING_BYTES - RECORDS_OFFSET - RecordDescriptor.HEADER_LENGTH, name);
        final int recordLength = RecordDescriptor.recordLength(length);
        if ((long)dataEnd + recordLength > buffer.capacity())
        {
            grow((long)dataEnd + recordLength);
        }
        RecordDescriptor.write(buffer, dataEnd, seqNum, message, offset, length, crc);
        index.put(seqNum, dataEnd);
        if (sync.onWrite())
        {
            mapping.force(dataEnd, recordLength);
            sync.onForced(0);
            forced();
        }
        dataEnd += recordLength;
    }

    /**
     * Cuts the records off the file (durably), then writes 1 and 1 as sequence numbers: the order
     * {@link FileStore#reset} explains. The file shrinks back to one chunk.
     */
    @Override
    public void reset()
    {
        checkOpen();
        unmap();
        resize(RECORDS_OFFSET, true);
        map(chunkBytes);
        pretouch(RECORDS_OFFSET);
        index.clear();
        dataEnd = RECORDS_OFFSET;
        unforcedFrom = RECORDS_OFFSET;
        seqNums.nextSender(1);
        seqNums.nextTarget(1);
        writeSeqNums();
        mapping.force(0, RECORDS_OFFSET);
        forced();
    }

    @Override
    void recover()
    {
        final long fileLength = fileLength();
        map((int)Math.min(Math.max(fileLength, chunkBytes), MAX_MAPPING_BYTES));
        seqNums.load(buffer, 0, crc, file.toString());

        int position = RECORDS_OFFSET;
        int recordLength;
        while ((recordLength = RecordDescriptor.validLength(buffer, position, buffer.capacity() - position, crc)) != RecordDescriptor.INVALID)
        {
            index.put(RecordDescriptor.seqNum(buffer, position), position);
            position += recordLength;
        }
        dataEnd = position;
        unforcedFrom = position;

        // Whatever follows the last good record goes: a torn record, or stale bytes a later shorter
        // record would leave behind to be mistaken for data after the next crash. Cutting the file
        // there and growing it again has the OS zero it, without writing the zeros ourselves.
        final int mappedLength = buffer.capacity();
        unmap();
        resize(dataEnd, sync.policy() != SyncPolicy.NONE);
        map(mappedLength);
        pretouch(dataEnd);

        advancePastStoredMessages();
    }

    private void grow(final long required)
    {
        final long grown = (required + chunkBytes - 1) / chunkBytes * chunkBytes;
        if (required > MAX_MAPPING_BYTES)
        {
            throw new IllegalStateException(name + " is full: a mapping holds at most 2 GiB. Reset the session's " +
                "sequence numbers more often (daily), or use the FILE store type for this session");
        }
        final int mappedLength = buffer.capacity();
        unmap();
        map((int)Math.min(grown, MAX_MAPPING_BYTES));
        pretouch(mappedLength);
    }

    @Override
    void writeSeqNums()
    {
        final int slotOffset = seqNums.writeNext(buffer, 0, crc);
        if (sync.onWrite())
        {
            mapping.force(slotOffset, SequenceNumberSlots.SLOT_LENGTH);
            sync.onForced(0);
            forced();
        }
    }

    @Override
    int loadRecord(final long position)
    {
        return RecordDescriptor.validLength(buffer, (int)position, dataEnd - position, crc) == RecordDescriptor.INVALID ?
            -1 : (int)position;
    }

    @Override
    DirectBuffer recordBuffer()
    {
        return buffer;
    }

    @Override
    void forceAll()
    {
        if (null != mapping)
        {
            mapping.force(0, RECORDS_OFFSET);
            mapping.force(unforcedFrom, dataEnd - unforcedFrom);
            unforcedFrom = dataEnd;
        }
    }

    @Override
    void release()
    {
        unmap();
    }

    /**
     * Takes the page faults of the file's unused tail now rather than in storeSent. Writing a zero
     * where the file already holds zeros changes nothing on disk but makes each page resident and
     * writable.
     */
    private void pretouch(final int from)
    {
        for (int page = (from + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES; page < buffer.capacity(); page += PAGE_BYTES)
        {
            buffer.putByte(page, (byte)0);
        }
    }

    private long fileLength()
    {
        try
        {
            return Files.exists(file) ? Files.size(file) : 0;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the size of " + file, ex);
        }
    }

    /** Maps the first {@code length} bytes of the file, extending the file with zeros if it is shorter. */
    private void map(final int length)
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            if (raf.length() < length)
            {
                raf.setLength(length);
            }
            mapping = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length);
            buffer.wrap(mapping);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot map " + length + " bytes of " + file + ": check free disk space", ex);
        }
    }

    private void resize(final long length, final boolean force)
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(length);
            if (force)
            {
                raf.getChannel().force(false);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot resize " + file + " to " + length + " bytes", ex);
        }
    }

    private void unmap()
    {
        if (null != mapping)
        {
            buffer.wrap(0, 0);
            IoUtil.unmap(mapping);
            mapping = null;
        }
    }
}
