package org.fixlab.bench;

/**
 * A problem the user can fix (bad argument, port in use, server unreachable): printed as one line
 * naming the problem, never as a stack trace, and the process exits non-zero.
 */
public final class BenchException extends RuntimeException
{
    public BenchException(final String message)
    {
        super(message);
    }

    public BenchException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
