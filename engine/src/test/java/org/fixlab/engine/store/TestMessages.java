package org.fixlab.engine.store;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Deterministic FIX-like messages: the content and length depend only on the seqNum (and a
 * variant), so a reader can tell what a writer, even one in another process, stored for it.
 */
final class TestMessages
{
    private TestMessages()
    {
    }

    static byte[] bytes(final int seqNum)
    {
        return bytes(seqNum, 0);
    }

    /** Lengths vary from about 60 to 360 bytes so records straddle pages and chunks unevenly. */
    static byte[] bytes(final int seqNum, final int variant)
    {
        final StringBuilder message = new StringBuilder("8=FIX.4.4\u00019=000\u000135=D\u000134=").append(seqNum)
            .append("\u000158=v").append(variant).append('-');
        final int filler = (int)((seqNum * 2654435761L + variant) % 300);
        for (int i = 0; i < filler; i++)
        {
            message.append((char)('a' + (seqNum + i) % 26));
        }
        return message.append("\u000110=000\u0001").toString().getBytes(StandardCharsets.US_ASCII);
    }

    static UnsafeBuffer buffer(final int seqNum)
    {
        return new UnsafeBuffer(bytes(seqNum));
    }

    static void assertIs(final int seqNum, final int variant, final DirectBuffer buffer, final int offset, final int length)
    {
        assertArrayEquals(bytes(seqNum, variant), copyOf(buffer, offset, length), () -> "payload of MsgSeqNum " + seqNum);
    }

    /** A message of any length whose bytes depend on {@code seed}, every byte value among them, not only FIX text. */
    static byte[] pattern(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed * 31 + i);
        }
        return bytes;
    }

    /** The bytes a replay handed over, copied out of its buffer (which the store reuses). */
    static byte[] copyOf(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }
}
