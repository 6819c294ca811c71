package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The campaign's closing table, read back from the manifests the runs wrote. */
class SummaryTest
{
    @Test
    void aRowShowsTheFiguresAndTheCpuReadings(@TempDir final Path campaign) throws Exception
    {
        final Path near = run(campaign, "rtt-echo.closed-loop.fixlab.optimized.r1",
            "\"p50_ns\": 9431,\n\"p99_ns\": 14200,\n\"core_to_core\": {\"cpus\": [0, 1], \"before_ns\": 61, \"after_ns\": 330}");
        final Path older = run(campaign, "throughput.stream.fixlab.optimized.r1", "\"messages_per_second\": 4390000.5");
        final String[] lines = Summary.table(List.of(near, older)).split("\n");
        assertTrue(lines[1].matches("rtt-echo\\.closed-loop\\.fixlab\\.optimized\\.r1 +9\\.4 +14\\.2 +61/330"), lines[1]);
        // a runner of 0.2.0 measured no CPUs
        assertTrue(lines[2].matches("throughput\\.stream\\.fixlab\\.optimized\\.r1 +4,390,001 +/"), lines[2]);
        assertTrue(lines[3].startsWith("(*) a cache line's round trip"), lines[3]);
    }

    private static Path run(final Path campaign, final String id, final String manifest) throws Exception
    {
        final Path dir = Files.createDirectories(campaign.resolve(id));
        Files.writeString(dir.resolve("manifest.json"), "{\n" + manifest + "\n}\n");
        return dir;
    }
}
