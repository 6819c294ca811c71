package org.fixlab.engine.messagelog;

/** Which thread writes the message log ({@code messageLogWriter}). */
public enum MessageLogThread
{
    /** {@link EngineThreadMessageLog}: formatted and written in the engine's duty cycle, no thread of its own. */
    ENGINE_THREAD("engine-thread"),
    /** {@link MessageLogWriter}: copied into a ring on the engine thread, formatted and written by a thread of its own. */
    OWN_THREAD("own-thread");

    private final String key;

    MessageLogThread(final String key)
    {
        this.key = key;
    }

    public String key()
    {
        return key;
    }

    /** Parses "engine-thread" or "own-thread", in any case. */
    public static MessageLogThread of(final String key)
    {
        for (final MessageLogThread thread : values())
        {
            if (thread.key.equalsIgnoreCase(key))
            {
                return thread;
            }
        }
        throw new IllegalArgumentException("'" + key + "' is not a message log writer (expected engine-thread or own-thread)");
    }
}
