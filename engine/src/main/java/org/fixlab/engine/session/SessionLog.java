package org.fixlab.engine.session;

/**
 * Where the session layer reports events (logon, gaps, rejects, disconnects). Never called per
 * application message on the hot path. The default prints one line per event to stderr; a null
 * session means an engine-level event (a connection not yet routed to a session).
 */
public interface SessionLog
{
    SessionLog STDERR = new SessionLog()
    {
        @Override
        public void info(final SessionId session, final String event)
        {
            System.err.println("[fixlab] " + (session == null ? "engine" : session) + " " + event);
        }

        @Override
        public void warn(final SessionId session, final String event)
        {
            System.err.println("[fixlab] WARN " + (session == null ? "engine" : session) + " " + event);
        }
    };

    SessionLog SILENT = new SessionLog()
    {
        @Override
        public void info(final SessionId session, final String event)
        {
        }

        @Override
        public void warn(final SessionId session, final String event)
        {
        }
    };

    void info(SessionId session, String event);

    void warn(SessionId session, String event);
}
