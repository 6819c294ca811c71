package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What every run folder must hold, checked as the data contract states it. */
final class RunFolderAssertions
{
    private RunFolderAssertions()
    {
    }

    static void assertValid(final Path run, final Scenario scenario, final int messages) throws IOException
    {
        final String manifest = Files.readString(run.resolve("manifest.json"));
        for (final String key : List.of("schema_version", "run_id", "campaign", "started_at", "finished_at", "product", "scenario",
            "repetition", "repetitions", "configuration", "nagle", "affinity", "validation", "storage", "queue", "idle_strategy",
            "socket_buffers", "workload", "warmup_messages", "message_type", "bytes", "fix_version", "topology", "hardware",
            "cpu_model", "ram_bytes", "kernel", "nic", "jdk_vendor", "jvm_args", "reproduce", "commands", "results"))
        {
            assertTrue(manifest.contains("\"" + key + "\""), run + ": manifest has " + key);
        }
        assertTrue(manifest.contains("\"scenario\": \"" + scenario.id() + "\""), manifest);
        assertTrue(manifest.contains("\"role\": \"server\"") && manifest.contains("\"role\": \"client\""), "both hosts");
        assertTrue(manifest.contains("bench-runner/bin/run"), "reproduce commands name the bin scripts");
        final boolean throughput = scenario == Scenario.THROUGHPUT;
        final List<String> lines = Files.readAllLines(run.resolve(throughput ? "throughput.csv" : "latency.csv"));
        if (throughput)
        {
            assertEquals("elapsed_ns,messages", lines.get(0));
            assertEquals(Integer.toString(messages), lines.get(lines.size() - 1).split(",")[1], "last progress point is the total");
            assertTrue(manifest.contains("\"messages_per_second\""));
        }
        else
        {
            assertEquals("seq,send_ns,latency_ns,latency_from_intended_ns", lines.get(0));
            assertEquals(messages + 1, lines.size(), "one row per measured message");
            for (final String line : lines.subList(1, lines.size()))
            {
                final String[] v = line.split(",");
                assertEquals(4, v.length, line);
                assertTrue(Long.parseLong(v[3]) >= Long.parseLong(v[2]) && Long.parseLong(v[2]) >= 0, line);
            }
            final String hgrm = Files.readString(run.resolve("latency.hgrm"));
            assertTrue(hgrm.contains("Total count    =" + String.format("%13d", messages)) || hgrm.contains("Total count"), hgrm);
            assertTrue(manifest.contains("\"p99_ns\""));
        }
        try (var siblings = Files.list(run.getParent()))
        {
            assertTrue(siblings.noneMatch(p -> p.getFileName().toString().endsWith(".partial")), "no partial folder left");
        }
    }
}
