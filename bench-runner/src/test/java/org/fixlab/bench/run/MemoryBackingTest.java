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

    @Test
    void aRunningPageoutSchemeIsNamedWithItsAgeAndQuota(@TempDir final Path kdamonds) throws Exception
    {
        // this VM's: physical memory, 5 s aggregation, page out what stayed (nearly) idle for 12 of them, 128 MiB a second
        final Path context = kdamond(kdamonds, "0", "on", 5_000_000);
        scheme(context, "0", "pageout", 12, 134_217_728, 1000);
        assertEquals("DAMON pageout of memory idle for 60 s or more, up to 128 MiB a second",
            MemoryBacking.damonSchemes(kdamonds));
    }

    @Test
    void stoppedMonitorsAndStatSchemesChangeNothingSoAreNotNamed(@TempDir final Path kdamonds) throws Exception
    {
        scheme(kdamond(kdamonds, "0", "off", 5_000_000), "0", "pageout", 12, 0, 0);
        scheme(kdamond(kdamonds, "1", "on", 100_000), "0", "stat", 0, 0, 0);
        assertEquals("", MemoryBacking.damonSchemes(kdamonds));
        assertEquals("", MemoryBacking.damonSchemes(kdamonds.resolve("no-damon-here")));
    }

    @Test
    void everyActingSchemeIsNamedInOrderAndAnUnreadableOneSaysSo(@TempDir final Path kdamonds) throws Exception
    {
        final Path context = kdamond(kdamonds, "0", "on", 100_000);
        for (int i = 0; i <= 10; i++)
        {
            scheme(context, Integer.toString(i), i == 10 ? "lru_deprio" : "stat", 25, 0, 1000);
        }
        scheme(context, "2", "pageout", 25, 10 << 20, 500); // 2.5 s idle, 10 MiB every half second
        Files.delete(context.resolve("schemes/10/quotas/bytes"));
        assertEquals("DAMON pageout of memory idle for 2.5 s or more, up to 20 MiB a second; DAMON lru_deprio ("
            + context.resolve("schemes/10") + ": unreadable)", MemoryBacking.damonSchemes(kdamonds));
    }

    private static Path kdamond(final Path kdamonds, final String name, final String state, final long aggregationMicros)
        throws Exception
    {
        final Path kdamond = Files.createDirectories(kdamonds.resolve(name));
        Files.writeString(kdamond.resolve("state"), state + "\n");
        final Path context = kdamond.resolve("contexts/0");
        Files.writeString(Files.createDirectories(context.resolve("monitoring_attrs/intervals")).resolve("aggr_us"),
            aggregationMicros + "\n");
        return context;
    }

    private static void scheme(final Path context, final String name, final String action, final long minAge,
        final long quotaBytes, final long quotaMillis) throws Exception
    {
        final Path scheme = Files.createDirectories(context.resolve("schemes").resolve(name));
        Files.writeString(scheme.resolve("action"), action + "\n");
        Files.writeString(Files.createDirectories(scheme.resolve("access_pattern/age")).resolve("min"), minAge + "\n");
        final Path quotas = Files.createDirectories(scheme.resolve("quotas"));
        Files.writeString(quotas.resolve("bytes"), quotaBytes + "\n");
        Files.writeString(quotas.resolve("reset_interval_ms"), quotaMillis + "\n");
    }

    private static void device(final Path driver, final String name, final String features) throws Exception
    {
        Files.writeString(Files.createDirectories(driver.resolve(name)).resolve("features"), features + "\n");
    }
}
