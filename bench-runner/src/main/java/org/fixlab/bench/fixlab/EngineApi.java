package org.fixlab.bench.fixlab;

import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.transport.TcpConnection;

/**
 * The engine calls whose signature changed between released engine versions, in one place, so that this
 * harness drives every version of a campaign (make bench VERSIONS="0.1.0 HEAD") and only the engine differs.
 *
 * <p>This file is the current engine's API. bench-runner/engine-api/&lt;version&gt;/EngineApi.java is the same
 * class written against an older engine: bin/engine-versions compiles it against that engine's jar when this
 * one does not compile there, and bin/fixlab-bench puts it before the harness on the classpath. Keep every
 * method static and not a compile-time constant, or the harness would carry the current answer inlined.
 */
final class EngineApi
{
    private EngineApi()
    {
    }

    /** The engine's callback interface over the harness's handler: a refused message is delivered again (Action.ABORT). */
    static Application application(final MessageHandler handler)
    {
        return (session, message) -> handler.onAppMessage(session, message) ? Action.CONTINUE : Action.ABORT;
    }

    /** Whether a message the handler refused comes again; engines without Action.ABORT drop it. */
    static boolean redeliversRefusedMessages()
    {
        return true;
    }

    /** The configuration's store type as the data contract names it: memory, file or mapped. */
    static String storeType(final EngineConfiguration configuration)
    {
        return configuration.storeType().key();
    }

    /**
     * The protocol and cipher suite the session's TLS connection negotiated, or null without TLS (or no connection).
     * TcpConnection's, which the 0.2.0 engine has too, where SessionTransport.tlsSession() came after it.
     */
    static String tlsSession(final Session session)
    {
        return session.transport() instanceof TcpConnection connection ? connection.tlsSession() : null;
    }
}
