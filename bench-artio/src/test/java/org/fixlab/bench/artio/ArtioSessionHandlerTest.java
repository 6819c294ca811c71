package org.fixlab.bench.artio;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.fixlab.bench.BenchException;
import org.junit.jupiter.api.Test;
import uk.co.real_logic.artio.messages.DisconnectReason;

/**
 * A disconnect Artio decides on during a run stops it with Artio's reason: the server used to wait out its timeout
 * (120 s) for orders that could not come, and said only that it timed out.
 */
class ArtioSessionHandlerTest
{
    private final ArtioSessionHandler handler = new ArtioSessionHandler()
    {
        @Override
        public io.aeron.logbuffer.ControlledFragmentHandler.Action onMessage(final org.agrona.DirectBuffer buffer,
            final int offset, final int length, final int libraryId, final uk.co.real_logic.artio.session.Session session,
            final int sequenceIndex, final long messageType, final long timestampInNs, final long position,
            final uk.co.real_logic.artio.library.OnMessageInfo messageInfo)
        {
            return io.aeron.logbuffer.ControlledFragmentHandler.Action.CONTINUE;
        }
    };

    @Test
    void aDisconnectStopsTheRunWithArtiosReasonAndTheFirstReasonIsKept()
    {
        assertDoesNotThrow(() -> handler.failIfDisconnected("after 10 orders"));
        handler.onDisconnect(1, null, DisconnectReason.SLOW_CONSUMER);
        handler.onDisconnect(1, null, DisconnectReason.REMOTE_DISCONNECT);
        final BenchException stopped = assertThrows(BenchException.class, () -> handler.failIfDisconnected("after 686043 orders"));
        assertEquals("artio: Artio disconnected the session (SLOW_CONSUMER) after 686043 orders", stopped.getMessage());
    }
}
