package org.fixlab.engine.dictionary;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.fixlab.engine.codec.FixVersion;

/**
 * An immutable FIX data dictionary read from a QuickFIX-format XML file: the fields with their
 * types and enumerated values, the header and trailer, and every message type with its fields,
 * required flags and repeating groups (components expanded). Lookups used per message are on
 * primitive keys, so validating against it allocates nothing. Safe to share between threads.
 */
public final class DataDictionary
{
    private static final Map<FixVersion, DataDictionary> STANDARD = new EnumMap<>(FixVersion.class);

    private final String source;
    private final String beginString;
    private final Int2ObjectHashMap<FieldDef> fields;
    private final StructureDef header;
    private final StructureDef trailer;
    private final Map<String, MessageDef> messages;
    private final Long2ObjectHashMap<MessageDef> messagesByKey = new Long2ObjectHashMap<>();
    private final boolean charFormatChecked;

    DataDictionary(
        final String source,
        final String beginString,
        final Int2ObjectHashMap<FieldDef> fields,
        final StructureDef header,
        final StructureDef trailer,
        final Map<String, MessageDef> messages)
    {
        this.source = source;
        this.beginString = beginString;
        this.fields = fields;
        this.header = header;
        this.trailer = trailer;
        this.messages = Collections.unmodifiableMap(messages);
        for (final MessageDef message : messages.values())
        {
            final long key = ShortKeys.of(message.msgType());
            if (key != ShortKeys.NONE)
            {
                messagesByKey.put(key, message);
            }
        }
        // FIX.4.0 and 4.1 CHAR fields were strings; QuickFIX/J checks the length only from 4.2 on.
        this.charFormatChecked = beginString.compareTo("FIX.4.1") > 0;
    }

    /**
     * The standard dictionary of a FIX version, read once from the QuickFIX/J message jar on the
     * class path ({@code /FIX42.xml}, {@code /FIX44.xml}) and then shared.
     */
    public static DataDictionary standard(final FixVersion version)
    {
        synchronized (STANDARD)
        {
            DataDictionary dictionary = STANDARD.get(version);
            if (dictionary == null)
            {
                dictionary = loadResource(resourceName(version));
                STANDARD.put(version, dictionary);
            }
            return dictionary;
        }
    }

    /** Reads a user-supplied dictionary file; {@link InvalidDictionaryException} names the file and the problem. */
    public static DataDictionary load(final Path file)
    {
        try (InputStream in = Files.newInputStream(file))
        {
            return DictionaryLoader.load(in, file.toString());
        }
        catch (final NoSuchFileException e)
        {
            throw new InvalidDictionaryException(file + ": no such dictionary file", e);
        }
        catch (final IOException e)
        {
            throw new InvalidDictionaryException(file + ": cannot read the dictionary: " + e, e);
        }
    }

    /** Reads a dictionary from a stream; {@code sourceName} is what error messages call it. */
    public static DataDictionary load(final InputStream in, final String sourceName)
    {
        return DictionaryLoader.load(in, sourceName);
    }

    private static String resourceName(final FixVersion version)
    {
        switch (version)
        {
            case FIX42:
                return "/FIX42.xml";
            case FIX44:
                return "/FIX44.xml";
            default:
                throw new IllegalArgumentException("no standard dictionary for " + version);
        }
    }

    private static DataDictionary loadResource(final String resource)
    {
        try (InputStream in = DataDictionary.class.getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new InvalidDictionaryException("classpath:" + resource +
                    ": not found; the quickfixj-messages-fix42/-fix44 jars must be on the class path");
            }
            return DictionaryLoader.load(in, "classpath:" + resource);
        }
        catch (final IOException e)
        {
            throw new InvalidDictionaryException("classpath:" + resource + ": cannot read the dictionary: " + e, e);
        }
    }

    /** BeginString(8) the dictionary describes, e.g. "FIX.4.2". */
    public String beginString()
    {
        return beginString;
    }

    /** Where the dictionary was read from, as used in error messages. */
    public String source()
    {
        return source;
    }

    /** The field with this tag, or null if the dictionary does not define it. */
    public FieldDef field(final int tag)
    {
        return fields.get(tag);
    }

    public boolean isField(final int tag)
    {
        return fields.containsKey(tag);
    }

    public StructureDef header()
    {
        return header;
    }

    public StructureDef trailer()
    {
        return trailer;
    }

    public boolean isHeaderField(final int tag)
    {
        return header.hasField(tag);
    }

    public boolean isTrailerField(final int tag)
    {
        return trailer.hasField(tag);
    }

    /** The message type, or null if undefined. */
    public MessageDef message(final String msgType)
    {
        return messages.get(msgType);
    }

    /** The message type whose MsgType(35) value is these bytes, or null. Garbage-free for values up to 7 bytes. */
    public MessageDef message(final DirectBuffer buffer, final int offset, final int length)
    {
        final long key = ShortKeys.of(buffer, offset, length);
        if (key != ShortKeys.NONE)
        {
            return messagesByKey.get(key);
        }
        return messages.get(buffer.getStringWithoutLengthAscii(offset, length));
    }

    public boolean isDefinedMsgType(final String msgType)
    {
        return messages.containsKey(msgType);
    }

    /** True if the dictionary defines the type with msgcat="admin". */
    public boolean isAdminMsgType(final String msgType)
    {
        final MessageDef message = messages.get(msgType);
        return message != null && message.isAdmin();
    }

    /** Every message type, in dictionary order. */
    public Collection<MessageDef> messages()
    {
        return messages.values();
    }

    boolean isCharFormatChecked()
    {
        return charFormatChecked;
    }

    @Override
    public String toString()
    {
        return "DataDictionary[" + beginString + " from " + source + ", " + fields.size() + " fields, " +
            messages.size() + " messages]";
    }
}
