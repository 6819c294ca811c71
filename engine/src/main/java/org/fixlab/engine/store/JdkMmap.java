package org.fixlab.engine.store;

import static org.agrona.UnsafeAccess.UNSAFE;

import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Locale;

import org.agrona.BufferUtil;

/**
 * The JDK's own {@code mmap} and {@code munmap} for a {@link FileChannel}, called without the objects
 * {@link FileChannel#map} allocates for every mapping: a MappedByteBuffer, its unmapper and its cleaner, 272 bytes on
 * Java 17. A {@link MappedStore} maps a window per 64 MiB of messages, so those are the only bytes its sending thread
 * allocates once warm; with these it allocates none. A mapping is then an address, seen through a direct ByteBuffer
 * {@link #pointView pointed} at it (the store's CRC32C reads records through a ByteBuffer, the JDK's accelerated path):
 * the view's address and capacity are set with Unsafe, as Agrona reads them.
 *
 * <p>The entry points are private to {@code java.base}: they are reached only when the JVM opens the package
 * ({@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED}, as Aeron and Artio ask for theirs), on Linux, and in one of
 * the two shapes the JDK has had: {@code FileChannelImpl.map0} and {@code unmap0} (Java 17), or its
 * {@code FileDispatcher}'s {@code map} and {@code unmap} taking the channel's descriptor (Java 25). Anything else and
 * {@link #UNAVAILABLE} says why; the store then maps through {@link FileChannel#map}, and each window costs its
 * objects. Linux only because the store makes mapped writes durable with {@code fdatasync} on the file (see
 * {@link MappedRegion#force}), which flushes mapped pages there, one page cache serving both.
 */
final class JdkMmap
{
    /** Why the JDK's entry points cannot be used, or null when they can. */
    static final String UNAVAILABLE;

    /** (FileChannel channel, long pagePosition, long length) to the mapping's address. */
    private static final MethodHandle MAP;
    /** (FileChannel channel, long address, long length) to munmap's result (0 or -1). */
    private static final MethodHandle UNMAP;
    private static final long BUFFER_ADDRESS_OFFSET;
    private static final long BUFFER_CAPACITY_OFFSET;

    static
    {
        MethodHandle map = null;
        MethodHandle unmap = null;
        long addressOffset = -1;
        long capacityOffset = -1;
        String unavailable = null;
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"))
        {
            unavailable = "not on Linux";
        }
        else
        {
            try
            {
                final Class<?> channelClass = Class.forName("sun.nio.ch.FileChannelImpl");
                final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(channelClass, MethodHandles.lookup());
                final int readWrite = (int)lookup.findStaticGetter(channelClass, "MAP_RW", int.class).invoke();
                final MethodHandle[] handles = findOwnMap0(lookup, channelClass, readWrite);
                final MethodHandle[] found = null != handles ? handles : findDispatcherMap(lookup, channelClass, readWrite);
                final MethodType mapType = MethodType.methodType(long.class, FileChannel.class, long.class, long.class);
                final MethodType unmapType = MethodType.methodType(int.class, FileChannel.class, long.class, long.class);
                map = found[0].asType(mapType);
                unmap = found[1].asType(unmapType);
                addressOffset = UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("address"));
                capacityOffset = UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("capacity"));
            }
            catch (final Throwable ex)
            {
                // IllegalAccessException without --add-opens, ReflectiveOperationException on a JDK of another shape
                unavailable = ex.toString();
            }
        }
        MAP = map;
        UNMAP = unmap;
        BUFFER_ADDRESS_OFFSET = addressOffset;
        BUFFER_CAPACITY_OFFSET = capacityOffset;
        UNAVAILABLE = null == unavailable ? viewsUnavailable() : unavailable;
    }

    private JdkMmap()
    {
    }

    /**
     * Maps {@code length} bytes of the channel's file from {@code pagePosition}, a multiple of the page size, shared
     * and read-write. The file must already be that long: a page past its end faults on access.
     *
     * @return the address of the first byte.
     */
    static long map(final FileChannel channel, final long pagePosition, final long length) throws IOException
    {
        try
        {
            return (long)MAP.invokeExact(channel, pagePosition, length);
        }
        catch (final OutOfMemoryError ex)
        {
            // what the JDK throws for ENOMEM: out of address space or map count (vm.max_map_count), not heap
            throw new IOException("mmap of " + length + " bytes failed: " + ex.getMessage(), ex);
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** A direct ByteBuffer for {@link #pointView}: no memory of its own in use, capacity 0 until pointed. */
    static ByteBuffer newView()
    {
        return ByteBuffer.allocateDirect(0);
    }

    /**
     * Points a {@link #newView view} at {@code capacity} bytes from {@code address}, position 0 and limit its
     * capacity; capacity 0 points it at nothing. The memory it was allocated with stays its cleaner's to free.
     */
    static void pointView(final ByteBuffer view, final long address, final int capacity)
    {
        UNSAFE.putLong(view, BUFFER_ADDRESS_OFFSET, address);
        UNSAFE.putInt(view, BUFFER_CAPACITY_OFFSET, capacity);
        view.clear();
    }

    /** Null when {@link #pointView} works on this JDK (its fields are written and read back), else why not. */
    private static String viewsUnavailable()
    {
        final ByteBuffer view = newView();
        final ByteBuffer memory = ByteBuffer.allocateDirect(16);
        memory.putLong(8, 0x0102030405060708L);
        pointView(view, BufferUtil.address(memory) + 8, 8);
        final boolean pointed = view.capacity() == 8 && view.limit() == 8 && view.getLong(0) == 0x0102030405060708L;
        pointView(view, 0, 0);
        return pointed ? null : "a direct ByteBuffer cannot be pointed at a mapping on this JDK";
    }

    /** Unmaps what {@link #map} mapped: its address and its length. */
    static void unmap(final FileChannel channel, final long address, final long length)
    {
        final int result;
        try
        {
            result = (int)UNMAP.invokeExact(channel, address, length);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        if (result != 0)
        {
            // only for arguments munmap refuses (EINVAL): this class's own error, the pages stay mapped
            throw new IllegalStateException("munmap of " + length + " bytes at " + address + " failed");
        }
    }

    /** Java 17: {@code long map0(int prot, long position, long length, boolean isSync)} and {@code static int unmap0(long, long)}. */
    private static MethodHandle[] findOwnMap0(final MethodHandles.Lookup lookup, final Class<?> channelClass, final int readWrite)
        throws ReflectiveOperationException
    {
        final MethodHandle map0;
        final MethodHandle unmap0;
        try
        {
            map0 = lookup.findVirtual(channelClass, "map0",
                MethodType.methodType(long.class, int.class, long.class, long.class, boolean.class));
            unmap0 = lookup.findStatic(channelClass, "unmap0", MethodType.methodType(int.class, long.class, long.class));
        }
        catch (final NoSuchMethodException ex)
        {
            return null;
        }
        final MethodHandle map = MethodHandles.insertArguments(MethodHandles.insertArguments(map0, 4, false), 1, readWrite);
        return new MethodHandle[] {map, MethodHandles.dropArguments(unmap0, 0, channelClass)};
    }

    /**
     * Java 25: the channel's {@code FileDispatcher nd} (a static field there) with {@code long map(FileDescriptor fd,
     * int prot, long position, long length, boolean isSync)} and {@code int unmap(long, long)}, and the channel's
     * {@code FileDescriptor fd}.
     */
    private static MethodHandle[] findDispatcherMap(final MethodHandles.Lookup lookup, final Class<?> channelClass, final int readWrite)
        throws Throwable
    {
        final Class<?> dispatcherClass = Class.forName("sun.nio.ch.FileDispatcher");
        final MethodHandle dispatcherMap = lookup.findVirtual(dispatcherClass, "map",
            MethodType.methodType(long.class, FileDescriptor.class, int.class, long.class, long.class, boolean.class));
        final MethodHandle dispatcherUnmap = lookup.findVirtual(dispatcherClass, "unmap",
            MethodType.methodType(int.class, long.class, long.class));
        final MethodHandle descriptor = lookup.findGetter(channelClass, "fd", FileDescriptor.class);

        // (dispatcher, fd, position, length)
        final MethodHandle map = MethodHandles.insertArguments(MethodHandles.insertArguments(dispatcherMap, 5, false), 2, readWrite);
        final Field nd = channelClass.getDeclaredField("nd");
        final MethodHandle dispatcherOf = Modifier.isStatic(nd.getModifiers())
            ? MethodHandles.dropArguments(MethodHandles.constant(dispatcherClass, lookup.unreflectGetter(nd).invoke()), 0, channelClass)
            : lookup.unreflectGetter(nd);
        // (channel, channel, position, length), then the one channel given to both getters
        final MethodHandle filtered = MethodHandles.filterArguments(map, 0, dispatcherOf, descriptor);
        final MethodHandle mapOfChannel = MethodHandles.permuteArguments(filtered,
            MethodType.methodType(long.class, channelClass, long.class, long.class), 0, 0, 1, 2);
        final MethodHandle unmapOfChannel = MethodHandles.filterArguments(dispatcherUnmap, 0, dispatcherOf);
        return new MethodHandle[] {mapOfChannel, unmapOfChannel};
    }
}
