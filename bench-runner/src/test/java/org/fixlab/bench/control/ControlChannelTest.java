package org.fixlab.bench.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.fixlab.bench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client's wait for the server's results, over a real loopback control connection. */
class ControlChannelTest
{
    private static final long TEN_SECONDS = 10_000_000_000L;

    /** A socket bound to a free port and connected to that same port is connected to itself (TCP's simultaneous open). */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aConnectionThatReachedItsOwnSocketIsToldApart() throws Exception
    {
        final int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            port = probe.getLocalPort();
        }
        try (Socket self = new Socket())
        {
            self.setReuseAddress(true);
            self.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            self.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            assertTrue(ControlChannel.connectedToItself(self), "bound to " + port + ", connected to " + self.getPort());
            self.getOutputStream().write('x');
            assertEquals('x', self.getInputStream().read(), "what it writes comes back to it");
        }
        try (ServerSocket listening = ControlChannel.bind("127.0.0.1", 0);
             Socket client = new Socket("127.0.0.1", listening.getLocalPort()))
        {
            assertFalse(ControlChannel.connectedToItself(client));
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aServerThatExitsWithoutResultsFailsTheWaitAtOnce() throws Exception
    {
        try (ServerSocket listening = ControlChannel.bind("127.0.0.1", 0))
        {
            final ControlChannel client = ControlChannel.connect("127.0.0.1", listening.getLocalPort(), System.nanoTime() + TEN_SECONDS);
            final ControlChannel server = ControlChannel.accept(listening, 10);
            assertFalse(client.resultsArriving(), "a server still counting has sent nothing yet");
            server.close();

            assertClosedServerFound(client);
            client.close();
        }
    }

    /**
     * After the client's done, its first turns of the wait poll its session, not a blocking read of the control channel:
     * the orders it still holds reach the server only while it polls. A closed server is found an interval later.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void afterDoneTheClosedCheckWaitsAnInterval() throws Exception
    {
        try (ServerSocket listening = ControlChannel.bind("127.0.0.1", 0))
        {
            final ControlChannel client = ControlChannel.connect("127.0.0.1", listening.getLocalPort(), System.nanoTime() + TEN_SECONDS);
            final ControlChannel server = ControlChannel.accept(listening, 10);
            server.close();
            Thread.sleep(100); // the close has reached the client's socket: a look at once would see it
            client.sendDone();
            assertFalse(client.resultsArriving(), "no look for a closed server right after done");

            assertClosedServerFound(client);
            client.close();
        }
    }

    /** The client's wait, turned until it finds the closed server: within ten seconds, with the message that says so. */
    private static void assertClosedServerFound(final ControlChannel client)
    {
        final long deadline = System.nanoTime() + TEN_SECONDS;
        final BenchException ex = assertThrows(BenchException.class, () ->
        {
            while (System.nanoTime() < deadline)
            {
                client.resultsArriving();
            }
        });
        assertTrue(ex.getMessage().contains("closed it before sending its results"), ex.getMessage());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void resultsThatArriveAreReadWhole() throws Exception
    {
        try (ServerSocket listening = ControlChannel.bind("127.0.0.1", 0))
        {
            final ControlChannel client = ControlChannel.connect("127.0.0.1", listening.getLocalPort(), System.nanoTime() + TEN_SECONDS);
            final ControlChannel server = ControlChannel.accept(listening, 10);
            server.sendMap(Map.of("orders", "4000000"));
            server.close();

            final long deadline = System.nanoTime() + TEN_SECONDS;
            boolean arrived = false;
            while (!arrived && System.nanoTime() < deadline)
            {
                arrived = client.resultsArriving();
            }
            assertTrue(arrived);
            // the peek that saw them put the first byte back
            assertEquals(Map.of("orders", "4000000"), client.readMap());
            client.close();
        }
    }
}
