package org.fixlab.bench.artio;

import static io.aeron.logbuffer.ControlledFragmentHandler.Action.CONTINUE;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import uk.co.real_logic.artio.library.SessionHandler;
import uk.co.real_logic.artio.messages.DisconnectReason;
import uk.co.real_logic.artio.session.Session;

/** What both Artio peers do with the session events the benchmark has no use for: nothing; Artio handles them. */
abstract class ArtioSessionHandler implements SessionHandler
{
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
        return CONTINUE;
    }

    @Override
    public void onSessionStart(final Session session)
    {
    }
}
