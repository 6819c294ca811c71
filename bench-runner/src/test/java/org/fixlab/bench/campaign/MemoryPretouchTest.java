package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryPretouchTest
{
    /** 16 GiB of memory, 2 GiB and 96 MiB free: an eighth is left alone, so 96 MiB is written. */
    private static final String MEMINFO = "MemTotal:       16777216 kB\nMemFree:         2195456 kB\nMemAvailable:   9000000 kB\n";

    @Test
    void writesTheFreeMemoryBeyondAnEighthOfTheMachineOncePerBoot(@TempDir final Path markers) throws Exception
    {
        final List<String> report = new ArrayList<>();
        MemoryPretouch.oncePerBoot(markers, "boot-1", MEMINFO, report::add);
        assertEquals(2, report.size(), report.toString());
        assertTrue(report.get(0).contains("writing 0.1 GiB"), report.get(0));
        assertEquals("100663296 bytes\n", Files.readString(markers.resolve("fixlab-bench-memory-written-boot-1")));

        MemoryPretouch.oncePerBoot(markers, "boot-1", MEMINFO, report::add);
        assertEquals(2, report.size(), "a second campaign of the same boot writes nothing: " + report);

        MemoryPretouch.oncePerBoot(markers, "boot-2", MEMINFO, report::add);
        assertEquals(4, report.size(), "the first campaign after the next boot writes again: " + report);
    }

    @Test
    void leavesAtLeastOneGibibyteAlone(@TempDir final Path markers) throws Exception
    {
        final List<String> report = new ArrayList<>();
        MemoryPretouch.oncePerBoot(markers, "boot-1", "MemTotal: 2097152 kB\nMemFree: 1048576 kB\n", report::add);
        assertEquals("0 bytes\n", Files.readString(markers.resolve("fixlab-bench-memory-written-boot-1")));
    }

    @Test
    void withoutProcItSaysSoAndWritesNothing(@TempDir final Path markers) throws Exception
    {
        final List<String> report = new ArrayList<>();
        MemoryPretouch.oncePerBoot(markers, "", "", report::add);
        assertEquals(List.of("memory: not written first (no /proc/sys/kernel/random/boot_id or /proc/meminfo here)"), report);
        try (var files = Files.list(markers))
        {
            assertEquals(0, files.count());
        }
    }

    /**
     * Every page is written, so the process's peak resident memory grows by all of it (within a MiB: the kernel counts
     * resident pages in batches, and the JVM may give back a little meanwhile); memory only reserved would not count.
     */
    @Test
    void writesEveryPageOfWholeChunksAndTheRest() throws Exception
    {
        final long bytes = 2 * MemoryPretouch.CHUNK_BYTES + 8192;
        final long residentBefore = statusBytes("VmRSS");
        assertEquals(bytes, MemoryPretouch.touch(bytes));
        final long peak = statusBytes("VmHWM");
        assertTrue(peak >= residentBefore + bytes - (1 << 20), "peak resident memory " + peak + " grew by the " + bytes + " bytes written from " + residentBefore);
        assertEquals(0, MemoryPretouch.touch(0));
    }

    private static long statusBytes(final String key) throws Exception
    {
        return MemoryPretouch.meminfoBytes(Files.readString(Path.of("/proc/self/status")), key);
    }

    @Test
    void readsMeminfoFiguresInBytes()
    {
        assertEquals(16L << 30, MemoryPretouch.meminfoBytes(MEMINFO, "MemTotal"));
        assertEquals(0, MemoryPretouch.meminfoBytes(MEMINFO, "SwapTotal"));
    }
}
