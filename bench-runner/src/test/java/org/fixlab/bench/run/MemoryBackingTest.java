package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The virtio-balloon driver's sysfs folder as tests lay it out: a folder per bound device, with its features bits. */
class MemoryBackingTest
{
    @Test
    void aBalloonWithFeatureFiveReportsFreePages(@TempDir final Path driver) throws Exception
    {
        // this VM's balloon: statistics, deflate on OOM, free page reporting
        device(driver, "virtio0", "0110010100000000000000000000000010000000");
        assertEquals(MemoryBacking.REPORTING, MemoryBacking.describe(driver));
    }

    @Test
    void aBalloonWithoutItDoesNot(@TempDir final Path driver) throws Exception
    {
        device(driver, "virtio0", "0110000100000000000000000000000010000000");
        assertEquals(MemoryBacking.BALLOON, MemoryBacking.describe(driver));
    }

    @Test
    void anyBoundBalloonThatReportsCounts(@TempDir final Path driver) throws Exception
    {
        device(driver, "virtio0", "011");
        device(driver, "virtio3", "011001");
        assertEquals(MemoryBacking.REPORTING, MemoryBacking.describe(driver));
    }

    @Test
    void noDriverOrNoBoundDeviceIsNoBalloon(@TempDir final Path root) throws Exception
    {
        assertEquals(MemoryBacking.NO_BALLOON, MemoryBacking.describe(root.resolve("virtio_balloon")));
        final Path unbound = Files.createDirectories(root.resolve("unbound"));
        Files.writeString(unbound.resolve("bind"), "");
        Files.writeString(unbound.resolve("uevent"), "");
        assertEquals(MemoryBacking.NO_BALLOON, MemoryBacking.describe(unbound));
    }

    @Test
    void anUnreadableDeviceIsUnknownNotGuessed(@TempDir final Path driver) throws Exception
    {
        Files.createDirectories(driver.resolve("virtio0")); // no features file
        assertTrue(MemoryBacking.describe(driver).startsWith("unknown ("), MemoryBacking.describe(driver));
    }

    private static void device(final Path driver, final String name, final String features) throws Exception
    {
        Files.writeString(Files.createDirectories(driver.resolve(name)).resolve("features"), features + "\n");
    }
}
