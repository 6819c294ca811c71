package org.fixlab.bench.run;

import java.util.Collection;
import java.util.Map;

/**
 * Just enough JSON for manifests: maps, lists, strings, numbers, booleans, null, and {@link Raw}
 * for a fragment that is already JSON (the server's hardware, sent over the control channel).
 * Written by hand so the runner has no JSON library on its classpath next to the engine.
 */
public final class Json
{
    /** A value that is already valid JSON text. */
    public record Raw(String json)
    {
    }

    private Json()
    {
    }

    public static String write(final Object value)
    {
        final StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(final StringBuilder sb, final Object value, final int indent)
    {
        if (value == null)
        {
            sb.append("null");
        }
        else if (value instanceof Raw raw)
        {
            sb.append(raw.json().strip());
        }
        else if (value instanceof String s)
        {
            string(sb, s);
        }
        else if (value instanceof Double d)
        {
            sb.append(d.isNaN() || d.isInfinite() ? "null" : String.format(java.util.Locale.ROOT, "%.3f", d));
        }
        else if (value instanceof Number || value instanceof Boolean)
        {
            sb.append(value);
        }
        else if (value instanceof Map<?, ?> map)
        {
            sb.append('{');
            boolean first = true;
            for (final Map.Entry<?, ?> e : map.entrySet())
            {
                sb.append(first ? "\n" : ",\n");
                first = false;
                pad(sb, indent + 1);
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                write(sb, e.getValue(), indent + 1);
            }
            if (!first)
            {
                sb.append('\n');
                pad(sb, indent);
            }
            sb.append('}');
        }
        else if (value instanceof Collection<?> list)
        {
            sb.append('[');
            boolean first = true;
            for (final Object item : list)
            {
                sb.append(first ? "" : ", ");
                first = false;
                write(sb, item, indent + 1);
            }
            sb.append(']');
        }
        else
        {
            string(sb, value.toString());
        }
    }

    private static void pad(final StringBuilder sb, final int indent)
    {
        sb.append("  ".repeat(indent));
    }

    private static void string(final StringBuilder sb, final String s)
    {
        sb.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20)
                    {
                        sb.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
