package org.fixlab.engine.tools;

import java.nio.file.Path;

import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.EngineOption;

/**
 * Prints the configuration reference (every key, its default in each preset, what it does) as a
 * Markdown table, or with {@code --config FILE} the effective values that file produces.
 */
public final class PrintConfiguration
{
    private PrintConfiguration()
    {
    }

    public static void main(final String[] args)
    {
        final Arguments arguments = Arguments.parse(args, "PrintConfiguration [--config engine.properties]");
        if (arguments.has("config"))
        {
            System.out.print(EngineConfiguration.load(Path.of(arguments.value("config", null))).describe());
            return;
        }
        System.out.print(referenceTable());
    }

    /** Every key as a Markdown table: the one on the portal's configuration page (a test keeps them equal). */
    public static String referenceTable()
    {
        final StringBuilder table = new StringBuilder("| key | balanced | optimized | what it does |\n| --- | --- | --- | --- |\n");
        for (final EngineOption option : EngineConfiguration.options())
        {
            table.append("| `").append(option.key()).append("` | `").append(show(option.balancedDefault())).append("` | `")
                .append(show(option.optimizedDefault())).append("` | ").append(option.description()).append(" |\n");
        }
        return table.toString();
    }

    private static String show(final String value)
    {
        return value.isEmpty() ? "(empty)" : value;
    }
}
