package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A small real run over loopback TCP (server on a thread of this JVM, client on the calling thread),
 * and the pipeline's ingest of every run folder a test class wrote: shared by the runner's tests and
 * those of products that run in a module of their own.
 */
public final class LoopbackRun
{
    public static final int MESSAGES = 300;

    private LoopbackRun()
    {
    }

    public static Path run(final Path out, final Scenario scenario, final Product product, final String config, final String campaign,
        final List<String> extra) throws Exception
    {
        final int port = freePortPair();
        final List<String> common = List.of("--scenario", scenario.id(), "--product", product.id(), "--config", config,
            "--port", Integer.toString(port), "--timeout", "50");
        final List<String> serverArgs = new ArrayList<>(common);
        serverArgs.addAll(List.of("--bind", "127.0.0.1"));
        final CompletableFuture<Void> server = CompletableFuture.runAsync(() -> BenchServer.run(Options.parse(serverArgs.toArray(String[]::new))));
        final List<String> clientArgs = new ArrayList<>(common);
        clientArgs.addAll(List.of("--host", "127.0.0.1", "--messages", Integer.toString(MESSAGES), "--warmup", "100", "--rate", "20000",
            "--out", out.toString(), "--campaign", campaign, "--quiet"));
        clientArgs.addAll(extra);
        final Path run = BenchClient.run(Options.parse(clientArgs.toArray(String[]::new)));
        server.get(20, TimeUnit.SECONDS);
        return run;
    }

    /** The pipeline's own validation of every run folder under {@code out} (make test-java builds the .venv first). */
    public static void assertIngested(final Path out, final long atLeast) throws Exception
    {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isRegularFile(root.resolve("Makefile")))
        {
            root = root.getParent();
        }
        assertTrue(root != null, "the repository root (with its Makefile) above " + Path.of("").toAbsolutePath());
        final Path fixlab = root.resolve(".venv/bin/fixlab");
        assertTrue(Files.isExecutable(fixlab), "no " + fixlab + ": run make venv (make test-java does) to check the runs with the pipeline");
        final long folders;
        try (Stream<Path> campaigns = Files.list(out))
        {
            folders = campaigns.filter(Files::isDirectory).mapToLong(LoopbackRun::runFolders).sum();
        }
        assertTrue(folders >= atLeast, "the runs wrote their folders (" + folders + " of " + atLeast + ")");
        final Process ingest = new ProcessBuilder(fixlab.toString(), "ingest", "--db", out.resolve("x.duckdb").toString(), "--keep-csv",
            out.toString()).redirectErrorStream(true).start();
        final String output = new String(ingest.getInputStream().readAllBytes());
        assertEquals(0, ingest.waitFor(), output);
        assertTrue(output.contains(folders + " runs ingested"), output);
    }

    private static long runFolders(final Path campaign)
    {
        try (Stream<Path> runs = Files.list(campaign))
        {
            return runs.filter(p -> Files.isRegularFile(p.resolve("manifest.json"))).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    public static int freePortPair() throws IOException
    {
        for (int attempt = 0; attempt < 50; attempt++)
        {
            final int port;
            try (ServerSocket socket = new ServerSocket(0))
            {
                port = socket.getLocalPort();
            }
            if (port < 65535)
            {
                try (ServerSocket control = new ServerSocket(port + 1))
                {
                    return port;
                }
                catch (final IOException ex)
                {
                    // taken: try another
                }
            }
        }
        throw new IOException("no free pair of ports");
    }
}
