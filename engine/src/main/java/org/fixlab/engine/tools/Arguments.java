package org.fixlab.engine.tools;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --key value} command-line arguments with one-line errors for the tools. */
public final class Arguments
{
    private final Map<String, String> values;
    private final String usage;

    private Arguments(final Map<String, String> values, final String usage)
    {
        this.values = values;
        this.usage = usage;
    }

    public static Arguments parse(final String[] args, final String usage)
    {
        final Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2)
            {
                throw fail(usage, "unexpected argument '" + arg + "'");
            }
            final String key = arg.substring(2);
            final int eq = key.indexOf('=');
            if (eq > 0)
            {
                values.put(key.substring(0, eq), key.substring(eq + 1));
            }
            else if (i + 1 < args.length && !args[i + 1].startsWith("--"))
            {
                values.put(key, args[++i]);
            }
            else
            {
                values.put(key, "true");
            }
        }
        return new Arguments(values, usage);
    }

    private static IllegalArgumentException fail(final String usage, final String problem)
    {
        return new IllegalArgumentException(problem + " (usage: " + usage + ")");
    }

    public boolean has(final String key)
    {
        return values.containsKey(key);
    }

    public String value(final String key, final String fallback)
    {
        return values.getOrDefault(key, fallback);
    }

    public int intValue(final String key, final int fallback)
    {
        final String value = values.get(key);
        if (value == null)
        {
            return fallback;
        }
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw fail(usage, "--" + key + " must be an integer, not '" + value + "'");
        }
    }

    public long longValue(final String key, final long fallback)
    {
        final String value = values.get(key);
        if (value == null)
        {
            return fallback;
        }
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw fail(usage, "--" + key + " must be an integer, not '" + value + "'");
        }
    }
}
