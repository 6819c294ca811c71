package org.fixlab.engine.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The initiator's test for a connection that reached its own socket, on real loopback sockets. */
class InitiatorConnectorTest
{
    /** A channel bound to a free port and connected to that same port is connected to itself (TCP's simultaneous open). */
    @Test
    void aSocketConnectedToItsOwnPortIsToldApart() throws IOException
    {
        final int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            port = free.getLocalPort();
        }
        try (SocketChannel self = SocketChannel.open())
        {
            final InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            self.bind(address);
            self.connect(address);
            assertTrue(InitiatorConnector.connectedToItself(self), "bound to and connected to " + address);
        }
    }

    @Test
    void aConnectionToAListenerIsNot() throws IOException
    {
        try (ServerSocketChannel listening = ServerSocketChannel.open())
        {
            listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(listening.getLocalAddress());
                 SocketChannel accepted = listening.accept())
            {
                assertFalse(InitiatorConnector.connectedToItself(client));
                assertFalse(InitiatorConnector.connectedToItself(accepted));
            }
        }
    }
}
