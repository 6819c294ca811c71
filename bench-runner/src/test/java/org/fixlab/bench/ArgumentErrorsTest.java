package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad arguments and unreachable peers end with one line naming the problem and a non-zero exit. */
class ArgumentErrorsTest
{
    @TempDir
    Path out;

    @Test
    void unknownScenarioNamesItAndTheKnownOnes()
    {
        final BenchException ex = assertThrows(BenchException.class, () -> Options.parse(new String[] {"--scenario", "latency"}));
        assertTrue(ex.getMessage().contains("unknown scenario 'latency'") && ex.getMessage().contains("rtt-echo"), ex.getMessage());
    }

    @Test
    void rateOfZeroIsRefused()
    {
        final BenchException ex = assertThrows(BenchException.class, () -> Options.parse(new String[] {"--rate", "0"}));
        assertTrue(ex.getMessage().contains("--rate 0"), ex.getMessage());
    }

    @Test
    void unknownConfigurationAndModeAreRefused()
    {
        assertTrue(assertThrows(BenchException.class, () -> Options.parse(new String[] {"--product", "quickfixj", "--config", "balanced"}))
            .getMessage().contains("unknown configuration 'balanced' for quickfixj"));
        assertTrue(assertThrows(BenchException.class, () -> Options.parse(new String[] {"--scenario", "throughput", "--mode", "paced"}))
            .getMessage().contains("--mode paced does not apply to throughput"));
    }

    @Test
    void portInUseIsNamed() throws Exception
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            final int port = taken.getLocalPort();
            final BenchException ex = assertThrows(BenchException.class, () -> BenchServer.run(Options.parse(new String[] {
                "--bind", "127.0.0.1", "--port", Integer.toString(port), "--product", "raw-socket"})));
            assertTrue(ex.getMessage().contains("127.0.0.1:" + port) && ex.getMessage().contains("in use"), ex.getMessage());
        }
    }

    @Test
    void unreachableServerIsNamedAndLeavesNoRunFolder() throws Exception
    {
        final int port = LoopbackRun.freePortPair();
        final BenchException ex = assertThrows(BenchException.class, () -> BenchClient.run(Options.parse(new String[] {
            "--host", "127.0.0.1", "--port", Integer.toString(port), "--timeout", "1", "--out", out.toString(), "--campaign", "x"})));
        assertTrue(ex.getMessage().startsWith("server unreachable at 127.0.0.1:" + (port + 1)), ex.getMessage());
        assertTrue(!Files.exists(out.resolve("x")) || Files.list(out.resolve("x")).findAny().isEmpty(), "no run folder");
    }

    /** The process view: one line on stderr, exit status 2, no stack trace. */
    @Test
    void processPrintsOneLineAndExitsNonZero() throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), BenchMain.class.getName(), "client", "--scenario", "nope"));
        final Process process = new ProcessBuilder(command).start();
        final String err = new String(process.getErrorStream().readAllBytes());
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        assertEquals(1, err.strip().lines().count(), err);
        assertTrue(err.contains("error: unknown scenario 'nope'"), err);
        assertTrue(File.pathSeparator.length() == 1);
    }
}
