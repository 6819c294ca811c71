package org.fixlab.engine.messagelog;

/**
 * How the message log writes the SOH between fields. Every other byte outside printable ASCII, and
 * the backslash, is written as an escape whatever the choice, so one message is always one line of
 * text: a garbled frame holding a line feed, an ESC sequence or bytes that are not ASCII cannot break
 * the line, drive a terminal or pass for markup.
 */
public enum FieldDelimiter
{
    /** SOH as it is, as QuickFIX/J's FileLog writes it: tools that read its logs read ours. */
    SOH("soh", (byte)0x01),
    /** SOH as {@code |}, for reading in a terminal; a {@code |} inside a value is then written {@code \x7C}. */
    PIPE("pipe", (byte)'|');

    private final String key;
    private final byte written;

    FieldDelimiter(final String key, final byte written)
    {
        this.key = key;
        this.written = written;
    }

    public String key()
    {
        return key;
    }

    /** The byte a SOH becomes in the log. */
    byte written()
    {
        return written;
    }

    /** Parses "soh" or "pipe", in any case. */
    public static FieldDelimiter of(final String key)
    {
        for (final FieldDelimiter delimiter : values())
        {
            if (delimiter.key.equalsIgnoreCase(key))
            {
                return delimiter;
            }
        }
        throw new IllegalArgumentException("'" + key + "' is not a delimiter (expected soh or pipe)");
    }
}
