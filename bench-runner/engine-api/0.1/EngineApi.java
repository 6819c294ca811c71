package org.fixlab.bench.fixlab;

import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;

/**
 * EngineApi for engines of the 0.1 line (release 0.1.0): Application.onAppMessage returns nothing, so a message
 * cannot be refused for now (no Action), EngineConfiguration.storeType() is the key itself, and there is no TLS. Compiled by
 * bin/engine-versions against such an engine's jar; see the current EngineApi in src/main/java.
 */
final class EngineApi
{
    private EngineApi()
    {
    }

    static Application application(final MessageHandler handler)
    {
        return new Application()
        {
            @Override
            public void onAppMessage(final Session session, final MessageDecoder message)
            {
                handler.onAppMessage(session, message);
            }
        };
    }

    static boolean redeliversRefusedMessages()
    {
        return false;
    }

    static String storeType(final EngineConfiguration configuration)
    {
        return configuration.storeType();
    }

    static String tlsSession(final Session session)
    {
        return null;
    }
}
