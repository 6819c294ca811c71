package org.fixlab.bench.quickfixj;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.apache.mina.core.session.DummySession;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.Replies;
import org.junit.jupiter.api.Test;

/** QuickFIX/J never refuses a send; the stream must stop adding to what MINA has queued for the socket. */
class QfjClientPeerTest
{
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
