package org.fixlab.engine.dictionary;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.MessageDecoder;

/**
 * Builds test messages the way the conformance runner does: '|' stands for SOH, {@code <TIME>}
 * becomes the current UTC time, BodyLength(9) is inserted after 8= and CheckSum(10) appended.
 */
final class TestMessages
{
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private TestMessages()
    {
    }

    /** The framed message as a String with SOH separators. */
    static String frame(final String script)
    {
        String body = script.replace("<TIME>", TIMESTAMP.format(Instant.now())).replace('|', '\u0001');
        if (!body.endsWith("\u0001"))
        {
            body += "\u0001";
        }
        final int afterBeginString = body.indexOf('\u0001') + 1;
        final String rest = body.substring(afterBeginString);
        final String message = body.substring(0, afterBeginString) + "9=" + rest.length() + "\u0001" + rest;
        int sum = 0;
        for (final byte b : message.getBytes(StandardCharsets.ISO_8859_1))
        {
            sum += b & 0xFF;
        }
        return message + String.format("10=%03d\u0001", sum & 0xFF);
    }

    /** Decodes a framed message; fails the test if the decoder calls it garbled. */
    static MessageDecoder decode(final String framed)
    {
        final MessageDecoder decoder = new MessageDecoder(1024);
        final int result = decodeInto(decoder, framed);
        if (result != MessageDecoder.OK)
        {
            throw new AssertionError("decoder result " + result + " for " + framed.replace('\u0001', '|'));
        }
        return decoder;
    }

    /** The decoder's verdict on a framed message: {@link MessageDecoder#OK}, GARBLED or TOO_MANY_FIELDS. */
    static int decodeInto(final MessageDecoder decoder, final String framed)
    {
        final byte[] bytes = framed.getBytes(StandardCharsets.ISO_8859_1);
        return decoder.decode(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    static MessageDecoder message(final String script)
    {
        return decode(frame(script));
    }
}
