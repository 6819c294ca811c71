package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two hosts for real: two network namespaces joined by a veth pair, the server process in one and
 * the client process in the other, talking over the veth. The manifest must say two-host and carry
 * both hosts. Needs root and iproute2; skips with the reason otherwise. Only the namespaces and
 * addresses created here are touched, and they are removed afterwards.
 */
class TwoHostNamespaceTest
{
    private final String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String serverNs = "fxb-s-" + tag;
    private final String clientNs = "fxb-c-" + tag;
    private final List<String> created = new ArrayList<>();

    @TempDir
    Path out;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void serverAndClientInTwoNamespacesRecordTwoHosts() throws Exception
    {
        final String why = setUp();
        Assumptions.assumeTrue(why == null, () -> "skipped: cannot create network namespaces (" + why + ")");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String cp = System.getProperty("java.class.path");
        final List<String> common = List.of("--scenario", "rtt-echo", "--product", "fixlab", "--config", "balanced", "--port", "9880");
        final List<String> serverCmd = new ArrayList<>(List.of("ip", "netns", "exec", serverNs, java, "-cp", cp, BenchMain.class.getName(),
            "server", "--bind", "10.213.77.1", "--timeout", "60"));
        serverCmd.addAll(common);
        final Path serverLog = out.resolve("server.log");
        final Process server = new ProcessBuilder(serverCmd).redirectErrorStream(true).redirectOutput(serverLog.toFile()).start();
        try
        {
            final List<String> clientCmd = new ArrayList<>(List.of("ip", "netns", "exec", clientNs, java, "-cp", cp,
                BenchMain.class.getName(), "client", "--host", "10.213.77.1", "--messages", "500", "--warmup", "100", "--rate", "5000",
                "--out", out.toString(), "--campaign", "netns", "--quiet", "--timeout", "60"));
            clientCmd.addAll(common);
            final Process client = new ProcessBuilder(clientCmd).redirectErrorStream(true).start();
            final String output = new String(client.getInputStream().readAllBytes());
            assertTrue(client.waitFor(90, TimeUnit.SECONDS));
            assertEquals(0, client.exitValue(), output + "\nserver: " + Files.readString(serverLog));
            final Path run = out.resolve("netns").resolve("rtt-echo.paced.fixlab.balanced.r1");
            RunFolderAssertions.assertValid(run, Scenario.RTT_ECHO, 500);
            final String manifest = Files.readString(run.resolve("manifest.json"));
            assertTrue(manifest.contains("\"kind\": \"two-host\""), manifest);
            assertTrue(manifest.contains("\"address\": \"10.213.77.1\"") && manifest.contains("\"address\": \"10.213.77.2\""), manifest);
            assertTrue(manifest.contains("\"nic\": \"fxbc" + tag), "the client's NIC is its veth end: " + manifest);
        }
        finally
        {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Returns null when both namespaces are up, or why they could not be made. */
    private String setUp() throws IOException, InterruptedException
    {
        final String[][] steps = {
            {"ip", "netns", "add", serverNs},
            {"ip", "netns", "add", clientNs},
            {"ip", "link", "add", "fxbs" + tag, "type", "veth", "peer", "name", "fxbc" + tag},
            {"ip", "link", "set", "fxbs" + tag, "netns", serverNs},
            {"ip", "link", "set", "fxbc" + tag, "netns", clientNs},
            {"ip", "-n", serverNs, "addr", "add", "10.213.77.1/24", "dev", "fxbs" + tag},
            {"ip", "-n", clientNs, "addr", "add", "10.213.77.2/24", "dev", "fxbc" + tag},
            {"ip", "-n", serverNs, "link", "set", "fxbs" + tag, "up"},
            {"ip", "-n", clientNs, "link", "set", "fxbc" + tag, "up"},
            {"ip", "-n", serverNs, "link", "set", "lo", "up"},
            {"ip", "-n", clientNs, "link", "set", "lo", "up"},
        };
        for (final String[] step : steps)
        {
            final Process p;
            try
            {
                p = new ProcessBuilder(step).redirectErrorStream(true).start();
            }
            catch (final IOException ex)
            {
                return "no iproute2: " + ex.getMessage();
            }
            final String output = new String(p.getInputStream().readAllBytes()).strip();
            if (p.waitFor() != 0)
            {
                return String.join(" ", step) + ": " + output;
            }
            if (step[1].equals("netns") && step[2].equals("add"))
            {
                created.add(step[3]);
            }
        }
        return null;
    }

    @AfterEach
    void tearDown() throws Exception
    {
        // deleting a namespace deletes the veth end inside it, and with it the pair
        for (final String ns : created)
        {
            new ProcessBuilder("ip", "netns", "del", ns).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
