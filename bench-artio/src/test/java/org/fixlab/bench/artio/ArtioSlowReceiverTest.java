package org.fixlab.bench.artio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.BenchException;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.server.ServerRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stream whose receiver falls behind back-pressures the sender's trySend and keeps the session: Artio's engine
 * must not disconnect it as a slow consumer. With Artio's default senderMaxBytesInBuffer (4 MiB) the client's engine
 * ended the session (SLOW_CONSUMER) in 4 of 14 stream runs here; this test stops polling the server's library
 * for three seconds, so its engine stops reading once the library's inbound publication is full, and the client's
 * engine has to hold everything TCP no longer takes until the library's own publication holds the client back.
 */
class ArtioSlowReceiverTest
{
    /**
     * More than Artio's default 4 MiB the client's engine may buffer (about 70 bytes a small order on the wire): the
     * sends that pass it. About 280,000 went out before the back-pressure here (the server's engine and TCP take most
     * of them), and Artio's defaults ended the session after 283,000-291,000.
     */
    private static final int ORDERS_WHILE_THE_SERVER_STANDS_STILL = 100_000;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aReceiverThatStopsReadingBackPressuresTheSenderInsteadOfLosingTheSession() throws Exception
    {
        final ArtioSettings settings = ArtioSettings.of("yielding");
        final int port = freePort();
        final ArtioServerPeer server = new ArtioServerPeer(settings, Scenario.THROUGHPUT, new ServerRecorder(0, 10_000_000, false, false));
        final ArtioClientPeer client = new ArtioClientPeer(settings, Scenario.THROUGHPUT, new Replies(16));
        final AtomicBoolean serverPolled = new AtomicBoolean(true);
        final AtomicBoolean running = new AtomicBoolean(true);
        // the duty cycle of BenchServer: yield only when a poll found nothing. A yield after every poll (10 fragments)
        // starved this thread behind Artio's own threads on a loaded machine: with two busy loops beside it, the
        // client's engine stayed slow for 9.8 and 10.0 s of the 3 s pause, and the second time its 10 s
        // slowConsumerTimeout ended the session, as in one CI run of seven. With this loop: 2.0-2.2 s
        final IdleStrategy idle = settings.libraryIdle();
        final Thread serverThread = new Thread(() ->
        {
            while (running.get())
            {
                idle.idle(serverPolled.get() ? server.poll() : 0);
            }
        }, "artio-test-server");
        try
        {
            server.listen("127.0.0.1", port);
            serverThread.start();
            client.connect("127.0.0.1", port, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));

            // the server's application stops reading for 3 s, well inside Artio's 10 s slow-consumer timeout (a peer
            // that takes nothing for that long is rightly dropped); the client sends all it can meanwhile
            serverPolled.set(false);
            int sent = 0;
            int refused = 0;
            final long pauseEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            try
            {
                while (System.nanoTime() < pauseEnd)
                {
                    if (client.send(sent + 1, true))
                    {
                        sent++;
                    }
                    else
                    {
                        refused++;
                        client.poll(); // throws if Artio ended the session
                    }
                }
            }
            catch (final BenchException ex)
            {
                throw new AssertionError(ex.getMessage() + ", after " + sent + " orders (" + refused + " refused)", ex);
            }
            assertTrue(sent > ORDERS_WHILE_THE_SERVER_STANDS_STILL, "only " + sent + " orders went out while the server stood still");
            assertTrue(refused > 0, "trySend never refused while the server stood still: " + sent + " orders sent");

            serverPolled.set(true); // it reads again: the session is still there and the stream drains
            final long drain = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            int more = 0;
            while (more < 10_000 && System.nanoTime() < drain)
            {
                if (client.send(sent + 1, true))
                {
                    sent++;
                    more++;
                }
                else
                {
                    client.poll();
                }
            }
            assertTrue(more == 10_000, "the stream did not resume once the server read again");
        }
        finally
        {
            running.set(false);
            serverThread.join(10_000);
            client.close();
            server.close();
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
