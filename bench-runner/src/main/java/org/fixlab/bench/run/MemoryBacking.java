package org.fixlab.bench.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whether this host gives freed memory back to a hypervisor, the manifest's {@code hardware.hosts[].memory}.
 *
 * <p>A virtual machine whose memory balloon has free page reporting (virtio-balloon feature 5) hands the host every
 * block of memory that stays free for a few seconds, and the host takes it back; the next write to such a page waits
 * for the host to fault it in again. A run that writes files (a store, a message log) writes new page-cache pages all
 * along, so on such a machine it pays that fault for each: on the 2-core VM the project measures on, writing 4 GiB
 * again at once cost 1.5-1.7 us a page and 10 s after freeing it 4.0-5.7 us, and fixlab balanced streamed 0.67-0.78M
 * orders a second with reporting on against 2.04-2.16M with the balloon's driver unbound and the memory written once
 * (optimized, which writes no files, 3.4-4.5M and 4.2-4.8M). The figure of a configuration that persists is the
 * machine's as much as the engine's, so the reader is told.
 */
public final class MemoryBacking
{
    public static final Path VIRTIO_BALLOON_DRIVER = Path.of("/sys/bus/virtio/drivers/virtio_balloon");
    /** VIRTIO_BALLOON_F_REPORTING: the position of its bit in a virtio device's sysfs {@code features} string. */
    static final int FREE_PAGE_REPORTING = 5;

    public static final String REPORTING = "virtio-balloon with free page reporting: memory freed for a few seconds goes back "
        + "to the host, and writing it again waits for the host";
    public static final String BALLOON = "virtio-balloon without free page reporting";
    public static final String NO_BALLOON = "no memory balloon";

    private MemoryBacking()
    {
    }

    /** What the devices bound to the virtio-balloon driver under {@code driver} say. */
    public static String describe(final Path driver)
    {
        if (!Files.isDirectory(driver))
        {
            return NO_BALLOON;
        }
        try (Stream<Path> entries = Files.list(driver))
        {
            final var devices = entries.filter(p -> p.getFileName().toString().startsWith("virtio")).toList();
            if (devices.isEmpty())
            {
                return NO_BALLOON;
            }
            for (final Path device : devices)
            {
                final String features = Files.readString(device.resolve("features"), StandardCharsets.US_ASCII).strip();
                if (features.length() > FREE_PAGE_REPORTING && features.charAt(FREE_PAGE_REPORTING) == '1')
                {
                    return REPORTING;
                }
            }
            return BALLOON;
        }
        catch (final IOException ex)
        {
            return "unknown (" + driver + ": " + ex.getMessage() + ")";
        }
    }

    public static boolean reportsFreePages()
    {
        return REPORTING.equals(describe(VIRTIO_BALLOON_DRIVER));
    }
}
