package org.fixlab.engine.store;

import static org.agrona.UnsafeAccess.UNSAFE;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One read-write mapping of a region of a {@link MappedStore}'s file, reused for one region after another: the store
 * keeps three for its windows (the current one, the next, the one moved away from) and passes them round, and reads
 * and writes them through {@link UnsafeBuffer} views it {@link #wrap}s on them. With {@link JdkMmap} available a
 * mapping is an address and a length, and mapping allocates nothing; without it, a {@link MappedByteBuffer} from
 * {@code FileChannel.map}, which allocates its objects. A mapping by address has no cleaner to unmap it once
 * unreachable: the store unmaps it when it moves on or closes, else the process's exit does.
 */
final class MappedRegion
{
    private static final long PAGE_BYTES = UNSAFE.pageSize();

    private final ReopeningFileChannel channel;
    private final boolean byAddress;
    /** By address: the mapping's bytes, a view {@link JdkMmap#pointView pointed} at them; a direct buffer is what the store's CRC32C reads. */
    private final ByteBuffer pages;
    /** By address: the first mapped page and the bytes mapped from it (the region, and what precedes it in its page). */
    private long pagesAddress;
    private long pagesLength;
    /** Not by address: the JDK's mapping. */
    private MappedByteBuffer mapping;
    private int length;
    private boolean mapped;

    MappedRegion(final ReopeningFileChannel channel, final boolean byAddress)
    {
        this.channel = channel;
        this.byAddress = byAddress;
        pages = byAddress ? JdkMmap.newView() : null;
    }

    /**
     * Maps {@code length} bytes of the file from {@code position}, growing the file with zeros to hold them. The
     * region must not be mapped.
     */
    void map(final long position, final int length)
    {
        if (mapped)
        {
            throw new IllegalStateException("the region is mapped already");
        }
        if (byAddress)
        {
            final long inPage = position % PAGE_BYTES;
            pagesLength = inPage + length;
            pagesAddress = channel.mapPages(position - inPage, pagesLength);
            JdkMmap.pointView(pages, pagesAddress + inPage, length);
        }
        else
        {
            mapping = channel.map(position, length);
        }
        this.length = length;
        mapped = true;
    }

    /** Points {@code view} at the region's bytes: its offset 0 is the mapped position. */
    void wrap(final UnsafeBuffer view)
    {
        view.wrap(byAddress ? pages : mapping);
    }

    /** Unmaps the region, if it is mapped. No view may be left on it: its pages are gone. */
    void unmap()
    {
        if (!mapped)
        {
            return;
        }
        mapped = false;
        if (byAddress)
        {
            JdkMmap.pointView(pages, 0, 0);
            channel.unmapPages(pagesAddress, pagesLength);
        }
        else
        {
            final MappedByteBuffer unmapped = mapping;
            mapping = null;
            IoUtil.unmap(unmapped);
        }
    }

    /**
     * Makes the region's bytes from {@code offset} durable. By address that is {@code fdatasync} on the whole file
     * (the JDK's msync is not reachable without its mapping objects): on Linux the mapped pages are the file's page
     * cache, so it writes them, and only the dirty ones; the store forces each window before it moves on, so the
     * dirty pages are this window's.
     */
    void force(final int offset, final int length)
    {
        if (byAddress)
        {
            channel.force();
        }
        else
        {
            mapping.force(offset, length);
        }
    }

    /** Makes all of the region's bytes durable. */
    void force()
    {
        force(0, length);
    }

    boolean isMapped()
    {
        return mapped;
    }
}
