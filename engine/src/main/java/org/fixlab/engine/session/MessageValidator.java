package org.fixlab.engine.session;

import org.fixlab.engine.codec.MessageDecoder;

/**
 * Optional message validation beyond the session's own header checks, typically a data dictionary.
 * On failure it fills {@code out} and returns false; the session answers with a Reject.
 */
@FunctionalInterface
public interface MessageValidator
{
    boolean validate(MessageDecoder message, Rejection out);
}
