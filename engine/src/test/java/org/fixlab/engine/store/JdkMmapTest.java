package org.fixlab.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDK's mmap by address: shared with the file both ways, and refused with an IOException, not a crash. */
class JdkMmapTest
{
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aMappingByAddressIsTheFileItself() throws IOException
    {
        assertNull(JdkMmap.UNAVAILABLE, "the test JVM should open java.base/sun.nio.ch (the pom's engine.jvm.flags)");
        try (FileChannel channel = FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap("file bytes".getBytes()), PAGE + 100);
            channel.write(ByteBuffer.wrap(new byte[] {0}), 3L * PAGE - 1);
            final long address = JdkMmap.map(channel, PAGE, 2L * PAGE);
            final ByteBuffer view = JdkMmap.newView();
            JdkMmap.pointView(view, address, 2 * PAGE);
            final UnsafeBuffer pages = new UnsafeBuffer(view);

            assertEquals(2 * PAGE, pages.capacity());
            assertEquals("file bytes", pages.getStringWithoutLengthAscii(100, 10), "the mapping reads the file");
            pages.putStringWithoutLengthAscii(PAGE + 7, "mapped bytes");
            final ByteBuffer read = ByteBuffer.allocate(12);
            channel.read(read, 2L * PAGE + 7);
            assertEquals("mapped bytes", new String(read.array()), "the file reads what the mapping wrote");

            JdkMmap.pointView(view, 0, 0);
            JdkMmap.unmap(channel, address, 2L * PAGE);
            assertEquals(0, view.capacity(), "a view pointed at nothing");
        }
    }

    @Test
    void aClosedChannelIsRefusedWithAnIOException() throws IOException
    {
        final FileChannel channel = FileChannel.open(dir.resolve("closed"), StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        channel.write(ByteBuffer.wrap(new byte[] {0}), PAGE - 1);
        channel.close();

        assertThrows(IOException.class, () -> JdkMmap.map(channel, 0, PAGE));
    }

    @Test
    void unmappingWhatWasNeverMappedFailsLoudly() throws IOException
    {
        try (FileChannel channel = FileChannel.open(dir.resolve("g"), StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            // munmap refuses an address that is not page-aligned (EINVAL): the store's own error, reported
            assertThrows(IllegalStateException.class, () -> JdkMmap.unmap(channel, 1, PAGE));
        }
    }
}
