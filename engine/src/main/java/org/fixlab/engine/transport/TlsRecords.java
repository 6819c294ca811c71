package org.fixlab.engine.transport;

import org.agrona.DirectBuffer;

/** Recognises the start of a TLS record where FIX was expected, to name the mistake instead of calling it garbled. */
final class TlsRecords
{
    private static final byte ALERT = 0x15;
    private static final byte HANDSHAKE = 0x16;
    private static final byte MAJOR_VERSION = 0x03;

    private TlsRecords()
    {
    }

    /** A handshake (ClientHello, ServerHello) or alert record header: content type, then version 3.x. */
    static boolean startsWithTlsRecord(final DirectBuffer buffer, final int length)
    {
        if (length < 2)
        {
            return false;
        }
        final byte type = buffer.getByte(0);
        return (type == HANDSHAKE || type == ALERT) && buffer.getByte(1) == MAJOR_VERSION;
    }
}
