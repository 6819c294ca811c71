package org.fixlab.engine.messagelog;

import org.agrona.DirectBuffer;

/**
 * Where a session records each message it takes in or hands to the transport, as the bytes crossed
 * the wire. Called on the engine thread, once per message: an implementation must not allocate, and
 * hands lines to the file system at most once per buffer-full or flush interval
 * ({@link EngineThreadMessageLog}), or not at all ({@link MessageLogWriter} copies the bytes into a ring
 * buffer and returns).
 */
public interface MessageLog
{
    /** No message log: the {@code optimized} preset's default. */
    MessageLog NONE = (buffer, offset, length, epochNanos) ->
    {
    };

    /**
     * One whole message, inbound or outbound, from 8= through the SOH after 10= (or whatever bytes a
     * garbled inbound frame held), and the engine clock's time of it in nanoseconds since the epoch.
     */
    void message(DirectBuffer buffer, int offset, int length, long epochNanos);

    /** Once a duty cycle, on the engine thread, with the engine clock's time: hand over lines that are due. */
    default void flush(final long nowNanos)
    {
    }
}
