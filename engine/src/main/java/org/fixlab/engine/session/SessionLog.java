package org.fixlab.engine.session;

/**
 * Where the session layer reports events (logon, gaps, rejects, disconnects). Never called per
 * application message on the hot path. The default, {@link #SLF4J}, logs through the SLF4J API to
 * the logger {@code org.fixlab.engine.session}, so an application's own binding (logback, log4j2,
 * ...) decides where the lines go; a null session means an engine-level event (a connection not yet
 * routed to a session).
 */
public interface SessionLog
{
    SessionLog SLF4J = new SessionLog()
    {
        private final org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger("org.fixlab.engine.session");

        @Override
        public void info(final SessionId session, final String event)
        {
            logger.info("{} {}", session == null ? "engine" : session, event);
        }

        @Override
        public void warn(final SessionId session, final String event)
        {
            logger.warn("{} {}", session == null ? "engine" : session, event);
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
