package org.fixlab.engine.codec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A FIX message as test code writes and reads it, built and checked with plain string arithmetic so
 * that tests of the codec and the session do not trust the codec to check itself. '|' stands for SOH
 * in the text tests write; {@link #frame} inserts BodyLength(9) and appends CheckSum(10).
 */
public final class FixFrame
{
    public static final char SOH = '\u0001';

    /** What {@link #body} leaves out: the standard header a session writes, and the trailer. */
    private static final Set<Integer> HEADER_AND_TRAILER = Set.of(8, 9, 35, 34, 49, 52, 56, 43, 122, 10);

    private final String text;
    private final List<Integer> tags = new ArrayList<>();
    private final List<String> values = new ArrayList<>();

    private FixFrame(final String text)
    {
        this.text = text;
        int start = 0;
        while (start < text.length())
        {
            final int equals = text.indexOf('=', start);
            final int soh = text.indexOf(SOH, start);
            if (equals < 0 || soh < 0 || equals > soh)
            {
                throw new AssertionError("not tag=value<SOH> at " + start + ": " + pipes(text));
            }
            tags.add(Integer.parseInt(text.substring(start, equals)));
            values.add(text.substring(equals + 1, soh));
            start = soh + 1;
        }
    }

    /**
     * {@code "8=FIX.4.4|35=0|..."} with BodyLength inserted after BeginString and CheckSum appended,
     * SOH-separated. A missing final '|' is added.
     */
    public static String frame(final String fields)
    {
        String body = fields.replace('|', SOH);
        if (!body.endsWith(String.valueOf(SOH)))
        {
            body += SOH;
        }
        final int afterBeginString = body.indexOf(SOH) + 1;
        final String rest = body.substring(afterBeginString);
        final String message = body.substring(0, afterBeginString) + "9=" + rest.length() + SOH + rest;
        return message + String.format("10=%03d", checksum(message)) + SOH;
    }

    /** The sum of the bytes modulo 256, as FIX defines CheckSum. */
    public static int checksum(final String bytes)
    {
        int sum = 0;
        for (final byte b : bytes.getBytes(StandardCharsets.ISO_8859_1))
        {
            sum += b & 0xFF;
        }
        return sum & 0xFF;
    }

    public static FixFrame parse(final String text)
    {
        return new FixFrame(text);
    }

    public static UnsafeBuffer buffer(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public static String pipes(final CharSequence text)
    {
        return text.toString().replace(SOH, '|');
    }

    /**
     * Checks the framing by recomputation: 8, 9 and 35 first, 10 last, BodyLength equal to the bytes
     * from after the 9= field through the SOH before 10=, CheckSum equal to their sum.
     */
    public FixFrame assertWellFormed()
    {
        assertTrue(tags.size() >= 4, () -> "too few fields: " + this);
        assertEquals(List.of(8, 9, 35), tags.subList(0, 3), () -> "first fields: " + this);
        assertEquals(10, tags.get(tags.size() - 1), () -> "last field: " + this);
        final int bodyStart = text.indexOf(SOH, text.indexOf(SOH) + 1) + 1;
        final int trailerStart = text.lastIndexOf(SOH + "10=") + 1;
        assertEquals(trailerStart - bodyStart, Integer.parseInt(value(9)), () -> "BodyLength of " + this);
        assertEquals(String.format("%03d", checksum(text.substring(0, trailerStart))), value(10), () -> "CheckSum of " + this);
        return this;
    }

    public String text()
    {
        return text;
    }

    public List<Integer> tags()
    {
        return tags;
    }

    /** The value of the first field with this tag, or null. */
    public String value(final int tag)
    {
        final int index = tags.indexOf(tag);
        return index < 0 ? null : values.get(index);
    }

    public int intValue(final int tag)
    {
        final String value = value(tag);
        if (value == null)
        {
            throw new AssertionError("no field " + tag + " in " + this);
        }
        return Integer.parseInt(value);
    }

    public boolean has(final int tag)
    {
        return tags.contains(tag);
    }

    public String msgType()
    {
        return value(Fix.MSG_TYPE);
    }

    public int seqNum()
    {
        return intValue(Fix.MSG_SEQ_NUM);
    }

    /** The fields after the standard header and before the trailer, as {@code tag=value|...}. */
    public String body()
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tags.size(); i++)
        {
            if (!HEADER_AND_TRAILER.contains(tags.get(i)))
            {
                sb.append(tags.get(i)).append('=').append(values.get(i)).append('|');
            }
        }
        return sb.toString();
    }

    @Override
    public String toString()
    {
        return pipes(text);
    }
}
