package org.fixlab.bench.quickfixj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.apache.mina.core.session.DummySession;
import org.fixlab.bench.OrderFields;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.Replies;
import org.junit.jupiter.api.Test;

class QfjClientPeerTest
{
    /**
     * The raw socket's fields, TransactTime one constant and not the application's clock, as every client sends
     * them. The orders are built milliseconds apart, so a client that read the clock would fail.
     */
    @Test
    void everyOrderCarriesTheRawSocketsFields() throws InterruptedException
    {
        final QfjClientPeer peer = new QfjClientPeer(new QuickfixjProduct.Config("optimized", false, false), Scenario.THROUGHPUT,
            new Replies(16));
        for (final boolean small : new boolean[] {false, true})
        {
            for (int seq = 41; seq <= 43; seq++)
            {
                Thread.sleep(3);
                assertEquals(OrderFields.expected(seq, small), OrderFields.of(peer.order(seq, small).toString(), '\u0001'),
                    "order " + seq + (small ? ", small" : ""));
            }
        }
    }

    /** QuickFIX/J never refuses a send; the stream must stop adding to what MINA has queued for the socket. */
    @Test
    void aStreamWaitsWhileMoreThanItsBoundIsQueuedForTheSocket()
    {
        final QfjClientPeer peer = new QfjClientPeer(new QuickfixjProduct.Config("optimized", false, false), Scenario.THROUGHPUT,
            new Replies(16));
        final DummySession connection = new DummySession();
        connection.increaseScheduledWriteBytes((int)QfjClientPeer.MAX_QUEUED_BYTES + 1);
        peer.filter().session = connection;

        // not logged on: a send that got past the check would reach QuickFIX/J and fail
        assertFalse(peer.send(1, true), "back-pressured while over the bound");
        assertFalse(peer.send(2, false));
    }
}
