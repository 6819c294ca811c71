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
        System.out.println("| key | balanced | optimized | what it does |");
        System.out.println("| --- | --- | --- | --- |");
        for (final EngineOption option : EngineConfiguration.options())
        {
            System.out.println("| `" + option.key() + "` | `" + show(option.balancedDefault()) + "` | `" +
                show(option.optimizedDefault()) + "` | " + option.description() + " |");
        }
    }

    private static String show(final String value)
    {
        return value.isEmpty() ? "(empty)" : value;
    }
}
