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

    static final String THREADS = "unpinned (benchmark thread polls the library; Artio's framer, media driver and archive have "
        + "threads of their own)";

    @Override
    public void onTimeout(final int libraryId, final Session session)
    {
    }

    @Override
    public void onSlowStatus(final int libraryId, final Session session, final boolean hasBecomeSlow)
    {
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

    /** Whether Artio disconnected one of this peer's sessions. */
    boolean disconnected()
    {
        return disconnected != null;
    }

    /** Throws if Artio disconnected one of this peer's sessions; {@code progress} says how far the run got. */
    void failIfDisconnected(final String progress)
    {
        if (disconnected())
        {
            throw new BenchException("artio: Artio disconnected the session (" + disconnected + ") " + progress);
        }
    }

    @Override
    public void onSessionStart(final Session session)
    {
    }
}
