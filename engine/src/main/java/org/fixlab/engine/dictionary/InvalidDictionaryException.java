package org.fixlab.engine.dictionary;

/** A dictionary file that cannot be used; the message names the file, the place and the problem. */
public final class InvalidDictionaryException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    InvalidDictionaryException(final String message)
    {
        super(message);
    }

    InvalidDictionaryException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
