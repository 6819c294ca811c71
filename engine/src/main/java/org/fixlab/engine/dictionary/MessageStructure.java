package org.fixlab.engine.dictionary;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.collections.IntHashSet;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;

/**
 * First validation pass: assigns every field of a decoded message, in wire order, to the header,
 * the body, the trailer or a repeating-group entry, the way QuickFIX/J 2.3.2's Message.parse does.
 * Problems it meets on the way (a repeated body tag, a header field among the body, a group entry
 * without its delimiter, group members out of order) win over every later check, as in QuickFIX/J.
 *
 * <p>Field ownership is kept in reusable arrays: the header, body and trailer are the owners
 * {@link #HEADER}, {@link #BODY}, {@link #TRAILER}; a group entry is an owner {@code >= 0}.
 * Not thread-safe: one per validator.
 */
final class MessageStructure
{
    static final int HEADER = -3;
    static final int TRAILER = -2;
    static final int BODY = -1;
    /** A piece of a data field's value that contained SOH, so the decoder split it off. */
    static final int DATA_CONTINUATION = -4;
    private static final int UNASSIGNED = Integer.MIN_VALUE;

    private static final int INITIAL_CAPACITY = 64;

    /** Header tags QuickFIX/J recognises by number, whatever the dictionary says (Message.isHeaderField). */
    private static final IntHashSet KNOWN_HEADER_TAGS = new IntHashSet();

    static
    {
        for (final int tag : new int[] {
            8, 9, 35, 49, 56, 115, 128, 90, 34, 50, 142, 57, 143, 116, 144, 129, 145, 43, 97, 52, 122, 212, 213, 347,
            369, 370, 1128, 1129, 1156, 627})
        {
            KNOWN_HEADER_TAGS.add(tag);
        }
    }

    private int[] owner = new int[INITIAL_CAPACITY];

    private int occurrenceCount;
    private int[] occurrenceField = new int[INITIAL_CAPACITY];
    private int[] occurrenceParent = new int[INITIAL_CAPACITY];
    private int[] occurrenceInstances = new int[INITIAL_CAPACITY];
    private GroupDef[] occurrenceDef = new GroupDef[INITIAL_CAPACITY];

    private int instanceCount;
    private int[] instanceOccurrence = new int[INITIAL_CAPACITY];

    private MessageDecoder message;
    private DataDictionary dictionary;
    private MessageDef messageDef;
    private ValidationOptions options;
    private ValidationFailure out;
    private int fieldCount;
    private int position;
    private int examined;

    /** True for tags QuickFIX/J always treats as trailer fields: SignatureLength, Signature, CheckSum. */
    static boolean isKnownTrailerTag(final int tag)
    {
        return tag == 93 || tag == 89 || tag == Fix.CHECK_SUM;
    }

    /**
     * Splits the message into its parts; false (with {@code out} filled) at the first structural
     * problem. {@code messageDef} is null for an undefined MsgType: the body then has no groups.
     */
    boolean parse(
        final MessageDecoder message,
        final DataDictionary dictionary,
        final MessageDef messageDef,
        final ValidationOptions options,
        final ValidationFailure out)
    {
        this.message = message;
        this.dictionary = dictionary;
        this.messageDef = messageDef;
        this.options = options;
        this.out = out;
        fieldCount = message.fieldCount();
        ensureCapacity(fieldCount);
        occurrenceCount = 0;
        instanceCount = 0;
        for (int i = 0; i < fieldCount; i++)
        {
            owner[i] = i < 3 ? HEADER : UNASSIGNED;
        }
        position = 3;
        examined = 3;
        if (!parseHeader() || !parseBody() || !parseTrailer())
        {
            return false;
        }
        // QuickFIX/J reads CheckSum from the trailer after parsing and drops the message without it
        // (possible when a data field's length swallowed it).
        if (!ownerHas(TRAILER, Fix.CHECK_SUM, fieldCount))
        {
            out.garbled("Field not found: 10");
            return false;
        }
        return true;
    }

    int owner(final int field)
    {
        return owner[field];
    }

    int occurrenceCount()
    {
        return occurrenceCount;
    }

    int occurrenceParent(final int occurrence)
    {
        return occurrenceParent[occurrence];
    }

    int occurrenceCountTag(final int occurrence)
    {
        return message.tag(occurrenceField[occurrence]);
    }

    int occurrenceInstances(final int occurrence)
    {
        return occurrenceInstances[occurrence];
    }

    GroupDef occurrenceDef(final int occurrence)
    {
        return occurrenceDef[occurrence];
    }

    int instanceCount()
    {
        return instanceCount;
    }

    int instanceOccurrence(final int instance)
    {
        return instanceOccurrence[instance];
    }

    /** Whether a field with this tag was given to the owner among the fields before {@code end}. */
    boolean ownerHas(final int ownerId, final int tag, final int end)
    {
        for (int i = 0; i < end; i++)
        {
            if (owner[i] == ownerId && message.tag(i) == tag)
            {
                return true;
            }
        }
        return false;
    }

    private boolean parseHeader()
    {
        while (position < fieldCount)
        {
            if (!extract(HEADER, true))
            {
                return false;
            }
            final int tag = message.tag(position);
            if (!KNOWN_HEADER_TAGS.contains(tag) && !dictionary.isHeaderField(tag))
            {
                return true;
            }
            // In the header a repeated tag simply replaces the earlier value, as in QuickFIX/J.
            if (!assign(HEADER, dictionary.header().group(tag), true))
            {
                return false;
            }
        }
        return true;
    }

    private boolean parseBody()
    {
        while (position < fieldCount)
        {
            if (!extract(BODY, true))
            {
                return false;
            }
            final int tag = message.tag(position);
            if (isKnownTrailerTag(tag))
            {
                return true;
            }
            if (KNOWN_HEADER_TAGS.contains(tag))
            {
                if (ownerHas(HEADER, tag, position))
                {
                    out.reject(SessionRejectReason.TAG_APPEARS_MORE_THAN_ONCE, tag);
                    return false;
                }
                if (!assign(HEADER, dictionary.header().group(tag), true))
                {
                    return false;
                }
                if (options.validateFieldsOutOfOrder())
                {
                    out.reject(SessionRejectReason.TAG_SPECIFIED_OUT_OF_REQUIRED_ORDER, tag);
                    return false;
                }
            }
            else
            {
                if (ownerHas(BODY, tag, position))
                {
                    out.reject(SessionRejectReason.TAG_APPEARS_MORE_THAN_ONCE, tag);
                    return false;
                }
                if (!assign(BODY, messageDef != null ? messageDef.group(tag) : null, false))
                {
                    return false;
                }
            }
        }
        return true;
    }

    /** Gives the field at the current position to a part, with the entries that follow when it counts a group. */
    private boolean assign(final int part, final GroupDef group, final boolean inHeader)
    {
        owner[position] = part;
        if (group != null)
        {
            return parseGroup(group, part, inHeader);
        }
        advance();
        return true;
    }

    private boolean parseTrailer()
    {
        while (position < fieldCount)
        {
            if (!extract(TRAILER, true))
            {
                return false;
            }
            final int tag = message.tag(position);
            if (!isKnownTrailerTag(tag) && !dictionary.isTrailerField(tag))
            {
                out.reject(SessionRejectReason.TAG_SPECIFIED_OUT_OF_REQUIRED_ORDER, tag);
                return false;
            }
            owner[position] = TRAILER;
            advance();
        }
        return true;
    }

    /**
     * Reads the entries of a group whose NumInGroup field is at {@link #position} (already given to
     * {@code parentOwner}). Ends at the first field that belongs to neither the group nor, for a
     * body group, the list of fields an entry may absorb (QuickFIX/J keeps undefined tags it is
     * told to accept inside the current entry).
     */
    private boolean parseGroup(final GroupDef group, final int parentOwner, final boolean inHeader)
    {
        final int countField = position;
        final DirectBuffer buffer = message.buffer();
        if (!isJavaInt(buffer, message.valueOffset(countField), message.valueLength(countField)))
        {
            out.garbled("Repeating group count requires an Integer");
            return false;
        }
        final int occurrence = newOccurrence(group, countField, parentOwner);
        advance();
        final int delimiter = group.delimiterTag();
        int instance = -1;
        int previousPosition = -1;
        while (position < fieldCount)
        {
            // Only the header, body and their own groups are read with a typed dictionary in QuickFIX/J,
            // so the data-field rule does not reach into nested groups.
            if (!extract(instance >= 0 ? instance : parentOwner, parentOwner < 0))
            {
                return false;
            }
            final int tag = message.tag(position);
            final GroupDef nested = group.group(tag);
            if (tag == delimiter)
            {
                instance = newInstance(occurrence);
                owner[position] = instance;
                previousPosition = -1;
                if (nested != null)
                {
                    if (!parseGroup(nested, instance, inHeader))
                    {
                        return false;
                    }
                }
                else
                {
                    advance();
                }
            }
            else if (nested != null)
            {
                if (instance < 0)
                {
                    out.reject(SessionRejectReason.REPEATING_GROUP_FIELDS_OUT_OF_ORDER, tag, group.missingDelimiterText());
                    return false;
                }
                owner[position] = instance;
                if (!parseGroup(nested, instance, inHeader))
                {
                    return false;
                }
            }
            else if (group.hasField(tag))
            {
                if (instance < 0)
                {
                    out.reject(SessionRejectReason.REPEATING_GROUP_FIELDS_OUT_OF_ORDER, tag, group.missingDelimiterText());
                    return false;
                }
                if (options.validateUnorderedGroupFields())
                {
                    final int memberPosition = group.position(tag);
                    if (memberPosition > -1)
                    {
                        if (memberPosition <= previousPosition)
                        {
                            out.reject(SessionRejectReason.REPEATING_GROUP_FIELDS_OUT_OF_ORDER, tag);
                            return false;
                        }
                        previousPosition = memberPosition;
                    }
                }
                owner[position] = instance;
                advance();
            }
            else
            {
                if (!isKnownTrailerTag(tag) && !inHeader)
                {
                    // An entry of a nested group may be followed by any field the dictionary knows;
                    // an entry of a body group only by a field of the message.
                    final boolean known = parentOwner >= 0 ? dictionary.isField(tag) : messageDef.hasField(tag);
                    if (!known)
                    {
                        if (options.rejectsUndefined(tag))
                        {
                            out.reject(SessionRejectReason.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, tag);
                            return false;
                        }
                        if (instance < 0)
                        {
                            out.reject(SessionRejectReason.REPEATING_GROUP_FIELDS_OUT_OF_ORDER, tag);
                            return false;
                        }
                        owner[position] = instance;
                        advance();
                        continue;
                    }
                }
                break;
            }
        }
        return true;
    }

    private void advance()
    {
        position++;
        while (position < fieldCount && owner[position] == DATA_CONTINUATION)
        {
            position++;
        }
    }

    /**
     * QuickFIX/J's rule for a field of type DATA, applied when the field is first read, in the part
     * being filled at that moment: its length field (tag - 1; 93 for Signature 89) must already be
     * there, and a value shorter than that length runs on over the following SOHs, so the decoder
     * fields it swallows become {@link #DATA_CONTINUATION}. A field first read inside a nested group
     * is exempt ({@code typed} false): QuickFIX/J reads those with the group's untyped dictionary.
     */
    private boolean extract(final int mapOwner, final boolean typed)
    {
        if (position < examined)
        {
            return true;
        }
        examined = position + 1;
        if (!typed)
        {
            return true;
        }
        final int tag = message.tag(position);
        final FieldDef field = dictionary.field(tag);
        if (field == null || field.type() != FieldType.DATA)
        {
            return true;
        }
        final int lengthTag = tag == 89 ? 93 : tag - 1;
        int lengthField = -1;
        for (int i = 0; i < position; i++)
        {
            if (owner[i] == mapOwner && message.tag(i) == lengthTag)
            {
                lengthField = i;
            }
        }
        if (lengthField < 0)
        {
            out.garbled("Did not find length field required to parse data field");
            return false;
        }
        final DirectBuffer buffer = message.buffer();
        if (!FieldFormats.isInt(buffer, message.valueOffset(lengthField), message.valueLength(lengthField)))
        {
            // QuickFIX/J reports its int converter's message here; a reject may allocate.
            out.reject(SessionRejectReason.INCORRECT_DATA_FORMAT_FOR_VALUE, lengthTag,
                intConversionError(buffer.getStringWithoutLengthAscii(message.valueOffset(lengthField), message.valueLength(lengthField))));
            return false;
        }
        final long declared = parseJavaInt(buffer, message.valueOffset(lengthField), message.valueLength(lengthField));
        final int valueStart = message.valueOffset(position);
        int next = position + 1;
        int valueEnd = valueStart + message.valueLength(position);
        while (valueEnd - valueStart < declared)
        {
            if (next >= fieldCount)
            {
                out.garbled("SOH not found at end of data field");
                return false;
            }
            owner[next] = DATA_CONTINUATION;
            valueEnd = message.valueOffset(next) + message.valueLength(next);
            next++;
        }
        return true;
    }

    /** QuickFIX/J's IntConverter error text for a value it cannot read as an int. */
    static String intConversionError(final String value)
    {
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if ((c < '0' || c > '9') && !(i == 0 && c == '-'))
            {
                return "invalid integral value: " + value;
            }
        }
        return "invalid integral value: " + value + ": java.lang.NumberFormatException: For input string: \"" + value + "\"";
    }

    private int newOccurrence(final GroupDef group, final int countField, final int parentOwner)
    {
        final int occurrence = occurrenceCount++;
        if (occurrence == occurrenceField.length)
        {
            final int capacity = occurrence * 2;
            occurrenceField = Arrays.copyOf(occurrenceField, capacity);
            occurrenceParent = Arrays.copyOf(occurrenceParent, capacity);
            occurrenceInstances = Arrays.copyOf(occurrenceInstances, capacity);
            occurrenceDef = Arrays.copyOf(occurrenceDef, capacity);
        }
        occurrenceField[occurrence] = countField;
        occurrenceParent[occurrence] = parentOwner;
        occurrenceInstances[occurrence] = 0;
        occurrenceDef[occurrence] = group;
        return occurrence;
    }

    private int newInstance(final int occurrence)
    {
        final int instance = instanceCount++;
        if (instance == instanceOccurrence.length)
        {
            instanceOccurrence = Arrays.copyOf(instanceOccurrence, instance * 2);
        }
        instanceOccurrence[instance] = occurrence;
        occurrenceInstances[occurrence]++;
        return instance;
    }

    private void ensureCapacity(final int fields)
    {
        if (owner.length < fields)
        {
            final int capacity = Math.max(fields, owner.length * 2);
            owner = new int[capacity];
        }
    }

    /** What Integer.parseInt accepts: an optional sign ('+' too), decimal digits, int range. */
    static boolean isJavaInt(final DirectBuffer buffer, final int offset, final int length)
    {
        return parseJavaInt(buffer, offset, length) != NOT_AN_INT;
    }

    static final long NOT_AN_INT = Long.MIN_VALUE;

    static long parseJavaInt(final DirectBuffer buffer, final int offset, final int length)
    {
        final int end = offset + length;
        int i = offset;
        boolean negative = false;
        if (length > 0 && (buffer.getByte(i) == '-' || buffer.getByte(i) == '+'))
        {
            negative = buffer.getByte(i) == '-';
            i++;
        }
        if (i == end)
        {
            return NOT_AN_INT;
        }
        long value = 0;
        for (; i < end; i++)
        {
            final int digit = buffer.getByte(i) - '0';
            if (digit < 0 || digit > 9)
            {
                return NOT_AN_INT;
            }
            value = value * 10 + digit;
            if (value > 2_147_483_648L)
            {
                return NOT_AN_INT;
            }
        }
        if (!negative && value > Integer.MAX_VALUE)
        {
            return NOT_AN_INT;
        }
        return negative ? -value : value;
    }
}
