package org.fixlab.bench.artio;

import static io.aeron.logbuffer.ControlledFragmentHandler.Action.CONTINUE;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import org.fixlab.bench.BenchException;
import uk.co.real_logic.artio.library.SessionHandler;
import uk.co.real_logic.artio.messages.DisconnectReason;
import uk.co.real_logic.artio.session.Session;

/**
 * What both Artio peers do with the session events: nothing but a disconnect, which they remember. The benchmark never
 * asks Artio to end a session before the run's end, so a disconnect then is Artio's own decision (a slow consumer, a
 * timeout), and the run stops at once with Artio's reason rather than waiting for orders that will not come.
 */
abstract class ArtioSessionHandler implements SessionHandler
{
    private DisconnectReason disconnected;
    private boolean slow;

    static final String THREADS = "unpinned (benchmark thread polls the library; Artio's framer, media driver and archive have "
        + "threads of their own)";

    @Override
    public void onTimeout(final int libraryId, final Session session)
    {
    }

    /**
     * Artio's engine says a session is slow when more than its senderMaxBytesInBuffer (4 MiB) waits for the socket,
     * and disconnects it if it stays so for slowConsumerTimeoutInMs (10 s). Its trySend back-pressures only when the
     * publication to the engine is full, far later, so a client that sends whenever trySend lets it outruns the
     * server until Artio disconnects it: a third of the stream's runs failed so. The client holds its orders while
     * its session is slow, as it does when back-pressured.
     */
    @Override
    public void onSlowStatus(final int libraryId, final Session session, final boolean hasBecomeSlow)
    {
        slow = hasBecomeSlow;
    }

    /** Whether Artio's engine last said this peer's session is slow (see onSlowStatus). */
    boolean slow()
    {
        return slow;
    }

    @Override
    public Action onDisconnect(final int libraryId, final Session session, final DisconnectReason reason)
    {
        if (disconnected == null)
        {
            disconnected = reason;
        }
        return CONTINUE;
    }

    /** Throws if Artio disconnected one of this peer's sessions; {@code progress} says how far the run got. */
    void failIfDisconnected(final String progress)
    {
        if (disconnected != null)
        {
            throw new BenchException("artio: Artio disconnected the session (" + disconnected + ") " + progress);
        }
    }

    @Override
    public void onSessionStart(final Session session)
    {
    }
}
