package org.fixlab.engine.session;

import java.util.ArrayList;
import java.util.List;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixFrame;

/**
 * An in-memory connection: keeps what the session commits, and can be told to refuse claims to
 * simulate a peer that stopped reading. Committed bytes are copied out at once, as if flushed, so
 * every claim starts at offset 0 of the buffer. Shared by the session tests and the inbound fuzz test.
 */
public final class RecordingTransport implements SessionTransport
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);
    private final StringBuilder committed = new StringBuilder();
    private int claimsLeft = Integer.MAX_VALUE;
    private boolean open = true;
    private String disconnectReason;

    /** While true, {@link #claim} answers {@link #BACK_PRESSURED}. */
    void backPressured(final boolean value)
    {
        claimsLeft = value ? 0 : Integer.MAX_VALUE;
    }

    /** Grants {@code claims} more claims, then answers {@link #BACK_PRESSURED}: a buffer that fills up mid-burst. */
    void backPressuredAfter(final int claims)
    {
        claimsLeft = claims;
    }

    String disconnectReason()
    {
        return disconnectReason;
    }

    /**
     * The messages committed since the last call, each checked for a correct BodyLength and CheckSum
     * (recomputed, not trusted from the codec).
     */
    public List<FixFrame> takeMessages()
    {
        final List<FixFrame> messages = new ArrayList<>();
        int start = 0;
        while (start < committed.length())
        {
            final int trailer = committed.indexOf(FixFrame.SOH + "10=", start);
            if (trailer < 0)
            {
                throw new AssertionError("committed bytes without a trailer: " + FixFrame.pipes(committed.substring(start)));
            }
            final int end = trailer + 8; // SOH 1 0 = d d d SOH
            messages.add(FixFrame.parse(committed.substring(start, end)).assertWellFormed());
            start = end;
        }
        committed.setLength(0);
        return messages;
    }

    @Override
    public int claim(final int length)
    {
        if (claimsLeft == 0 || length > buffer.capacity())
        {
            return BACK_PRESSURED;
        }
        if (claimsLeft != Integer.MAX_VALUE)
        {
            claimsLeft--;
        }
        return 0;
    }

    @Override
    public boolean hasRoom(final int length)
    {
        return claimsLeft > 0 && length <= buffer.capacity();
    }

    @Override
    public void commit(final int offset, final int length)
    {
        committed.append(buffer.getStringWithoutLengthAscii(offset, length));
    }

    @Override
    public MutableDirectBuffer outboundBuffer()
    {
        return buffer;
    }

    @Override
    public void disconnect(final String reason)
    {
        open = false;
        disconnectReason = reason;
    }

    @Override
    public boolean isOpen()
    {
        return open;
    }

    @Override
    public long readNanos()
    {
        return 0;
    }

    @Override
    public long writeNanos()
    {
        return 0;
    }
}
