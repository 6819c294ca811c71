package org.fixlab.engine.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port nobody listens on, for a child process that must be restarted on the same port. */
final class FreePorts
{
    private FreePorts()
    {
    }

    static int pick()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free loopback port", ex);
        }
    }
}
