package org.fixlab.engine.config;

import java.util.List;
import java.util.function.Function;

/**
 * What values an option of {@code engine.properties} accepts. Every option states its kind when it is
 * registered, so a value is checked by the kind alone and a new option cannot be added unchecked.
 * {@link #validate(String)} refuses a value with the rule it broke; the caller adds the key.
 */
public sealed interface OptionKind
{
    OptionKind BOOL = new Bool();
    OptionKind POSITIVE_NUMBER = new PositiveNumber();
    /** A file or directory: opened or created when the engine starts, where a missing one has a context to be reported in. */
    OptionKind PATH = new Free("path");
    /** Free text such as passwords and key store types: the engine's TLS context checks them when it is built. */
    OptionKind TEXT = new Free("text");

    /** Refuses a value this kind does not accept, with the rule and the value in the message. */
    void validate(String value);

    static IntRange range(final int min, final int max)
    {
        return new IntRange(min, max, false, "");
    }

    /** An integer in range that is a power of two, as a ring indexed by mask needs. */
    static IntRange powerOfTwo(final int min, final int max, final String why)
    {
        return new IntRange(min, max, true, why);
    }

    /** One value of an enum, parsed by the enum's own {@code of(key)}, whose message lists what it accepts. */
    static OptionKind choice(final Function<String, ? extends Enum<?>> parser)
    {
        return new Choice(parser);
    }

    /** A comma-separated list, each element one of {@code offered}. */
    static OptionKind listOf(final String... offered)
    {
        return new ListOf(List.of(offered));
    }

    /** true or false; Y/N and yes/no too, as QuickFIX/J settings write them. */
    record Bool() implements OptionKind
    {
        @Override
        public void validate(final String value)
        {
            parse(value);
        }

        public static boolean parse(final String value)
        {
            if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("Y") || value.equalsIgnoreCase("yes"))
            {
                return true;
            }
            if (value.equalsIgnoreCase("false") || value.equalsIgnoreCase("N") || value.equalsIgnoreCase("no"))
            {
                return false;
            }
            throw new IllegalArgumentException("'" + value + "' is not a boolean (true or false)");
        }
    }

    /** An integer in {@code min..max}; with {@code powerOfTwo}, also a power of two ({@code why}, if not empty, says why). */
    record IntRange(int min, int max, boolean powerOfTwo, String why) implements OptionKind
    {
        @Override
        public void validate(final String value)
        {
            parse(value);
        }

        public int parse(final String value)
        {
            final int parsed;
            try
            {
                parsed = Integer.parseInt(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("'" + value + "' is not an integer");
            }
            if (parsed < min || parsed > max)
            {
                throw new IllegalArgumentException(parsed + " is out of range " + min + ".." + max);
            }
            if (powerOfTwo && Integer.bitCount(parsed) != 1)
            {
                throw new IllegalArgumentException("'" + value + "' is not a power of two" + (why.isEmpty() ? "" : " (" + why + ")"));
            }
            return parsed;
        }
    }

    /** A finite number above zero, such as a multiplier of the heartbeat interval. */
    record PositiveNumber() implements OptionKind
    {
        @Override
        public void validate(final String value)
        {
            parse(value);
        }

        public static double parse(final String value)
        {
            final double parsed;
            try
            {
                parsed = Double.parseDouble(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("'" + value + "' is not a number");
            }
            if (!(parsed > 0) || Double.isInfinite(parsed))
            {
                throw new IllegalArgumentException(value + " must be a positive number");
            }
            return parsed;
        }
    }

    /** The enum's parser is the one rule, so the accessor that returns the enum and the check cannot disagree. */
    record Choice(Function<String, ? extends Enum<?>> parser) implements OptionKind
    {
        @Override
        public void validate(final String value)
        {
            parser.apply(value);
        }
    }

    record ListOf(List<String> offered) implements OptionKind
    {
        @Override
        public void validate(final String value)
        {
            for (final String element : value.split("\\s*,\\s*"))
            {
                if (!offered.contains(element))
                {
                    throw new IllegalArgumentException("'" + element + "' is not offered (expected " + String.join(" and/or ", offered) + ")");
                }
            }
        }
    }

    /** Anything, checked where it is used ({@code what} names which free kind it is). */
    record Free(String what) implements OptionKind
    {
        @Override
        public void validate(final String value)
        {
            // nothing to check before use: see PATH and TEXT
        }
    }
}
