package org.fixlab.bench.fixlab;

import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.session.Session;

/**
 * The harness's side of a fixlab session's application callback, in types every engine version has:
 * {@link EngineApi#application} adapts it to the engine's own Application interface.
 */
interface MessageHandler
{
    /** True when the message was handled; false asks for it again on a later duty cycle (where the engine can). */
    boolean onAppMessage(Session session, MessageDecoder message);
}
