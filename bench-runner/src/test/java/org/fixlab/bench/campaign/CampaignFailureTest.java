package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed run says why on both sides: the client often only sees the server go, and the server's log knows why. */
class CampaignFailureTest
{
    @TempDir
    Path dir;

    @Test
    void theClientsErrorComesWithTheServersAndWhereItsLogIs() throws IOException
    {
        final Path serverLog = Files.writeString(dir.resolve("server.log"),
            "server ready: throughput artio/yielding on 127.0.0.1:9940 (control port 9941)\n" +
            "fixlab-bench server: error: timed out after 120 s with 1089335 of 4000000 orders\n");
        assertEquals("control channel: the server closed it before sending its results (its log says why); " +
            "server: fixlab-bench server: error: timed out after 120 s with 1089335 of 4000000 orders (server log: " + serverLog + ")",
            Campaign.failure("control channel: the server closed it before sending its results (its log says why)", 1,
                "ignored", serverLog));
    }

    @Test
    void aClientThatDiedWithoutAnErrorLineIsKnownByItsStatusAndLastLine() throws IOException
    {
        final Path serverLog = Files.writeString(dir.resolve("server.log"), "server ready: rtt-echo fixlab/optimized\nSLF4J: noise\n");
        assertEquals("client exited with status 137 (its last line: Killed); server: server ready: rtt-echo fixlab/optimized " +
            "(server log: " + serverLog + ")", Campaign.failure(null, 137, "Killed", serverLog));
    }
}
