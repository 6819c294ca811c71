package org.fixlab.engine.messagelog;

import org.fixlab.engine.session.SessionId;

/**
 * The message log of one engine: a file per session, in QuickFIX/J's FileLog names and line format. Two
 * ways to write them ({@code messageLogWriter}): {@link EngineThreadMessageLog} formats and writes on the
 * engine thread, in its duty cycle; {@link MessageLogWriter} hands each message to a thread of the log's
 * own through a ring buffer.
 */
public interface EngineMessageLog extends AutoCloseable
{
    /** Opens (or appends to) the session's file; call while setting the engine up, not per message. */
    MessageLog forSession(SessionId id);

    /**
     * Messages not in their file because it failed (those of the failed write and every later one), summed over
     * the sessions; exact once closed.
     */
    long linesLost();

    /** Writes everything logged before this call, then closes the files. */
    @Override
    void close();
}
