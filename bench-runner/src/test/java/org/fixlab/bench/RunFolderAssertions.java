package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.fixlab.bench.run.Stalls;

/** What every run folder must hold, checked as the data contract states it: the manifest parsed, the samples counted. */
final class RunFolderAssertions
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TOTAL_COUNT = Pattern.compile("Total count\\s*=\\s*(\\d+)");

    private RunFolderAssertions()
    {
    }

    static JsonNode manifest(final Path run) throws IOException
    {
        return JSON.readTree(Files.readString(run.resolve("manifest.json")));
    }

    static void assertValid(final Path run, final Scenario scenario, final int messages) throws IOException
    {
        final JsonNode manifest = manifest(run);
        for (final String path : List.of("/schema_version", "/run_id", "/campaign", "/started_at", "/finished_at", "/product/name",
            "/product/version", "/product/commit", "/product/label", "/product/order", "/product/role", "/scenario", "/repetition",
            "/repetitions", "/configuration/name", "/configuration/nagle", "/configuration/affinity", "/configuration/validation/checksum",
            "/configuration/validation/garbled", "/configuration/validation/dictionary", "/configuration/storage",
            "/configuration/queue", "/configuration/idle_strategy", "/configuration/socket_buffers/send",
            "/configuration/socket_buffers/receive", "/workload/mode", "/workload/messages", "/workload/warmup_messages",
            "/workload/message_type", "/workload/bytes", "/workload/fix_version", "/topology/kind", "/hardware/hosts/0/cpu_model",
            "/hardware/hosts/0/ram_bytes", "/hardware/hosts/0/kernel", "/hardware/hosts/0/nic", "/hardware/hosts/0/jdk_vendor",
            "/hardware/hosts/0/jvm_args", "/hardware/hosts/1/cpu_model", "/reproduce/commands/0", "/results", "/measurement/timestamps",
            "/harness/commit"))
        {
            assertTrue(!manifest.at(path).isMissingNode() && !manifest.at(path).isNull(), run + ": manifest has " + path);
        }
        assertEquals(2, manifest.get("schema_version").asInt(), "data contract version (docs/data-contract.md)");
        assertEquals(scenario.id(), manifest.get("scenario").asText());
        assertEquals(run.getFileName().toString(), manifest.get("run_id").asText());
        assertEquals(Product.of(manifest.at("/product/name").asText()).label(), manifest.at("/product/label").asText());
        assertEquals(List.of("server", "client"), List.of(manifest.at("/topology/hosts/0/role").asText(),
            manifest.at("/topology/hosts/1/role").asText()), "both hosts");
        assertEquals(messages, manifest.at("/workload/messages").asInt());
        assertTrue(manifest.at("/reproduce/commands/0").asText().contains("bench-runner/bin/run"), "reproduce commands name the bin scripts");
        final boolean throughput = scenario == Scenario.THROUGHPUT;
        final List<String> lines = Files.readAllLines(run.resolve(throughput ? "throughput.csv" : "latency.csv"));
        if (throughput)
        {
            assertEquals("elapsed_ns,messages", lines.get(0));
            // timed from the first measured order's arrival (after the warm-up), the stream counts the orders after it
            final int counted = manifest.at("/workload/warmup_messages").asInt() > 0 ? messages - 1 : messages;
            assertEquals(Integer.toString(counted), lines.get(lines.size() - 1).split(",")[1], "last progress point is the total");
            assertEquals(counted, manifest.at("/results/messages").asLong());
            assertTrue(manifest.at("/results/messages_per_second").asDouble() > 0);
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
            final Matcher total = TOTAL_COUNT.matcher(Files.readString(run.resolve("latency.hgrm")));
            assertTrue(total.find(), "latency.hgrm states its total count");
            assertEquals(messages, Long.parseLong(total.group(1)), "latency.hgrm counts every measured message");
            assertEquals(messages, manifest.at("/results/samples").asLong());
            assertTrue(manifest.at("/results/p99_ns").asLong() >= manifest.at("/results/p50_ns").asLong());
        }
        // what the client's thread allocated over the measured messages, in bytes and per message (rounded)
        final JsonNode allocated = manifest.at("/results/allocated_bytes");
        assertTrue(allocated.isIntegralNumber() && allocated.asLong() >= 0, run + ": allocated_bytes " + allocated);
        assertEquals(Math.round(allocated.asLong() * 1000.0 / messages) / 1000.0,
            manifest.at("/results/allocated_bytes_per_message").asDouble(), 1e-9, run + ": per message, rounded");
        // the runner's own readings after the last measured message (the host's tasks, the JIT's threads: 350 KB once
        // counted with a round trip's) stay out of it; fixlab's measured messages without TLS, and the raw socket's,
        // leave at most what the JIT makes on the thread the first time it compiles something, a few hundred bytes
        final String product = manifest.at("/product/name").asText();
        if ((product.equals("fixlab") || product.equals("raw-socket")) && manifest.at("/configuration/tls").isMissingNode())
        {
            assertTrue(allocated.asLong() < 16 * 1024, run + ": allocated_bytes " + allocated);
        }
        // on Linux, the host's other tasks over the measured window: the client's host is hosts/1
        final JsonNode others = manifest.at("/hardware/hosts/1/other_tasks");
        if (Files.isReadable(Path.of("/proc/self/schedstat")))
        {
            assertTrue(others.get("window_ns").asLong() > 0, others.toString());
            assertTrue(others.get("cpu_ns").asLong() >= 0, others.toString());
            assertTrue(others.get("busiest").size() <= 3, others.toString());
            assertTrue(others.get("stolen_ns").asLong() >= 0, others.toString());
            // what the benchmark JVMs' compilers took from the end of the wait for them to the end of the measured messages;
            // not bounded by the span times the CPUs: the kernel adds a running thread's time at its next tick or switch,
            // so a reading can lag (23.8 ms in a 2.0 ms span in one CI run, 2026-12-01)
            final JsonNode compilers = manifest.at("/hardware/hosts/1/compilers");
            assertTrue(compilers.path("window_ns").asLong() > 0, compilers.toString());
            assertTrue(compilers.path("cpu_ns").isIntegralNumber() && compilers.path("cpu_ns").asLong() >= 0,
                compilers.toString());
        }
        // a paced run: how long the client's thread, spinning on the clock, and the server's, where it spins, stood still
        final JsonNode stalls = manifest.at("/hardware/hosts/1/stalls");
        if ("paced".equals(manifest.at("/workload/mode").asText()))
        {
            assertEquals(Stalls.OVER_NS, stalls.path("over_ns").asLong(), stalls.toString());
            final long window = stalls.path("window_ns").asLong();
            assertTrue(window > 0, stalls.toString());
            for (final String side : new String[] {"client", "server"})
            {
                final JsonNode total = stalls.path(side + "_ns");
                final JsonNode longest = stalls.path(side + "_longest_ns");
                final JsonNode offCpu = stalls.path(side + "_off_cpu_ns");
                assertEquals(total.isMissingNode(), longest.isMissingNode(), stalls.toString());
                assertEquals(total.isMissingNode(), offCpu.isMissingNode(), stalls.toString());
                assertTrue(side.equals("server") || !total.isMissingNode(), "the client spins in every paced run: " + stalls);
                assertTrue(total.isMissingNode() || window >= total.asLong() && total.asLong() >= longest.asLong() && longest.asLong() >= 0,
                    stalls.toString());
                assertTrue(total.isMissingNode() || total.asLong() >= offCpu.asLong() && offCpu.asLong() >= 0, stalls.toString());
                // the whole window off the CPU: read at both of its ends on the client, cut from readings on the server
                final JsonNode windowOff = stalls.path(side + "_window_off_cpu_ns");
                assertEquals(total.isMissingNode(), windowOff.isMissingNode(), stalls.toString());
                assertTrue(windowOff.isMissingNode() || windowOff.asLong() >= 0 && windowOff.asLong() <= window, stalls.toString());
                // the JVMs' safepoints, which HotSpot logs: the side's own in the window, and the time off the CPU they explain
                final JsonNode paused = stalls.path(side + "_paused_ns");
                final JsonNode pauseOffCpu = stalls.path(side + "_pause_off_cpu_ns");
                assertEquals(total.isMissingNode(), paused.isMissingNode(), stalls.toString());
                assertEquals(total.isMissingNode(), pauseOffCpu.isMissingNode(), stalls.toString());
                assertTrue(paused.isMissingNode() || paused.asLong() >= 0 && paused.asLong() <= window, stalls.toString());
                assertTrue(pauseOffCpu.isMissingNode() || pauseOffCpu.asLong() >= 0 && pauseOffCpu.asLong() <= offCpu.asLong(),
                    stalls.toString());
            }
        }
        else
        {
            assertTrue(stalls.isMissingNode(), "only a paced run's client spins on the clock: " + stalls);
        }
        try (var siblings = Files.list(run.getParent()))
        {
            assertTrue(siblings.noneMatch(p -> p.getFileName().toString().endsWith(".partial")), "no partial folder left");
        }
    }
}
