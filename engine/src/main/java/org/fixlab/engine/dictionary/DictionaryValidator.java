package org.fixlab.engine.dictionary;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;

/**
 * Checks decoded messages against a {@link DataDictionary} and reports the first problem with the
 * SessionRejectReason, RefTagID and text QuickFIX/J 2.3.2 would use, in its order of precedence:
 *
 * <ol>
 *   <li>structure, in wire order ({@link MessageStructure}): repeated tag (13), header field among
 *       the body (14), non-trailer field after the trailer started (14), group entry without its
 *       delimiter or members out of order (15), undefined tag inside a group (2);</li>
 *   <li>MsgType defined (11, 371=35);</li>
 *   <li>required fields: header, trailer, body, then group entries (1);</li>
 *   <li>every field of the header, then the trailer, then the body, then each group entry - each
 *       part in QuickFIX/J's field order (by tag; trailer 93, 89, 10; group entries by member
 *       order) - checked for an empty value (4), its type's format (6), its enumerated values (5),
 *       being defined there (2, or 0 for a tag the dictionary does not know) and a NumInGroup
 *       that matches the entries present (16).</li>
 * </ol>
 *
 * <p>Session checks (MsgSeqNum, CompIDs, SendingTime, BeginString, PossDup, CheckSum, framing) are
 * not done here. Not thread-safe: one validator per session thread; after warm-up a message that
 * passes allocates nothing.
 */
public final class DictionaryValidator
{
    private static final int MSG_TYPE_INDEX = 2;
    private static final long NOT_IN_ORDER = 1L << 33;

    private final DataDictionary dictionary;
    private final ValidationOptions options;
    private final MessageStructure structure = new MessageStructure();
    private final UnsafeBuffer canonicalInt = new UnsafeBuffer(new byte[16]);
    // Bound once: passing a method reference created per call would allocate on every validated message.
    private final PartCheck requiredCheck = this::hasRequired;
    private final PartCheck fieldsCheck = this::fieldsValid;
    private MessageDecoder message;
    private MessageDef messageDef;
    private int failingReason;

    /** A check of one part of a message: header, body, trailer or one repeating-group entry. */
    @FunctionalInterface
    private interface PartCheck
    {
        boolean passes(int owner, StructureDef def, ValidationFailure out);
    }

    public DictionaryValidator(final DataDictionary dictionary)
    {
        this(dictionary, new ValidationOptions());
    }

    public DictionaryValidator(final DataDictionary dictionary, final ValidationOptions options)
    {
        this.dictionary = dictionary;
        this.options = options.copy();
    }

    public DataDictionary dictionary()
    {
        return dictionary;
    }

    /** A copy of the options in force. */
    public ValidationOptions options()
    {
        return options.copy();
    }

    /**
     * Validates a message decoded from 8= through 10=. Returns true if it is valid; otherwise
     * fills {@code out} and returns false. A message QuickFIX/J would drop as garbled rather than
     * reject is reported with {@link ValidationFailure#isGarbled()}.
     */
    public boolean validate(final MessageDecoder message, final ValidationFailure out)
    {
        out.clear();
        this.message = message;
        final int fieldCount = message.fieldCount();
        if (fieldCount < 3 || message.tag(0) != Fix.BEGIN_STRING || message.tag(1) != Fix.BODY_LENGTH ||
            message.tag(MSG_TYPE_INDEX) != Fix.MSG_TYPE)
        {
            out.garbled("Header fields out of order");
            return false;
        }
        for (int i = 0; i < fieldCount; i++)
        {
            if (message.tag(i) == MessageDecoder.OVERSIZED_TAG)
            {
                out.garbled("Bad tag format");
                return false;
            }
        }
        messageDef = dictionary.message(
            message.buffer(), message.valueOffset(MSG_TYPE_INDEX), message.valueLength(MSG_TYPE_INDEX));

        if (!structure.parse(message, dictionary, messageDef, options, out))
        {
            return false;
        }
        if (messageDef == null)
        {
            out.reject(SessionRejectReason.INVALID_MSGTYPE, Fix.MSG_TYPE);
            return false;
        }
        return hasRequired(MessageStructure.HEADER, dictionary.header(), out) &&
            hasRequired(MessageStructure.TRAILER, dictionary.trailer(), out) &&
            hasRequired(MessageStructure.BODY, messageDef, out) &&
            fieldsValid(MessageStructure.HEADER, dictionary.header(), out) &&
            fieldsValid(MessageStructure.TRAILER, dictionary.trailer(), out) &&
            fieldsValid(MessageStructure.BODY, messageDef, out);
    }

    /** Required fields of one part, then of its group entries (QuickFIX/J skips those when the part has none). */
    private boolean hasRequired(final int owner, final StructureDef def, final ValidationFailure out)
    {
        final int[] required = def.requiredInCheckOrder();
        if (required.length == 0)
        {
            return true;
        }
        final int fieldCount = message.fieldCount();
        for (final int tag : required)
        {
            if (!structure.ownerHas(owner, tag, fieldCount))
            {
                out.reject(SessionRejectReason.REQUIRED_TAG_MISSING, tag);
                return false;
            }
        }
        return entriesPass(owner, requiredCheck, out);
    }

    /** Field checks of one part in QuickFIX/J's order, then of its group entries. */
    private boolean fieldsValid(final int owner, final StructureDef def, final ValidationFailure out)
    {
        final int fieldCount = message.fieldCount();
        int worst = -1;
        long worstKey = Long.MAX_VALUE;
        int worstReason = -1;
        for (int i = 0; i < fieldCount; i++)
        {
            if (structure.owner(i) != owner || (owner != MessageStructure.BODY && isReplacedLater(i)))
            {
                continue;
            }
            if (!fieldValid(i, owner, def))
            {
                final long key = orderKey(message.tag(i), owner, def);
                if (key < worstKey)
                {
                    worst = i;
                    worstKey = key;
                    worstReason = failingReason;
                }
            }
        }
        if (worst >= 0)
        {
            out.reject(worstReason, message.tag(worst));
            return false;
        }
        return entriesPass(owner, fieldsCheck, out);
    }

    /**
     * Runs a part's check on every entry of the part's repeating groups, group by group in the order QuickFIX/J
     * checks them, depth first (an entry's own check walks its nested groups).
     */
    private boolean entriesPass(final int owner, final PartCheck check, final ValidationFailure out)
    {
        int countTag = Integer.MIN_VALUE;
        while ((countTag = nextGroupTag(owner, countTag)) != Integer.MIN_VALUE)
        {
            for (int occurrence = 0; occurrence < structure.occurrenceCount(); occurrence++)
            {
                if (isOccurrenceOf(occurrence, owner, countTag))
                {
                    for (int instance = 0; instance < structure.instanceCount(); instance++)
                    {
                        if (structure.instanceOccurrence(instance) == occurrence &&
                            !check.passes(instance, structure.occurrenceDef(occurrence), out))
                        {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }

    /** One field's checks; on failure leaves the reason in {@link #failingReason}. */
    private boolean fieldValid(final int index, final int owner, final StructureDef def)
    {
        final DirectBuffer buffer = message.buffer();
        final int tag = message.tag(index);
        final int offset = message.valueOffset(index);
        final int length = message.valueLength(index);
        if (length == 0 && options.validateFieldsHaveValues())
        {
            return fail(SessionRejectReason.TAG_SPECIFIED_WITHOUT_A_VALUE);
        }
        final FieldDef field = dictionary.field(tag);
        final boolean isCount = def.group(tag) != null;
        if (field != null)
        {
            final FieldType type = field.type();
            final EnumValues values = field.enumValueSet();
            if (isCount)
            {
                // After reading a group QuickFIX/J rewrites its NumInGroup value as
                // Integer.toString(value): never a format error, but still checked against enums.
                final int canonicalLength = canonicalInt.putIntAscii(0, (int)MessageStructure.parseJavaInt(buffer, offset, length));
                if (values != null && !values.isAllowed(canonicalInt, 0, canonicalLength, false))
                {
                    return fail(SessionRejectReason.VALUE_IS_INCORRECT);
                }
            }
            else
            {
                if ((type != FieldType.CHAR || dictionary.isCharFormatChecked()) &&
                    !FieldFormats.isValid(type.format(), buffer, offset, length))
                {
                    return fail(SessionRejectReason.INCORRECT_DATA_FORMAT_FOR_VALUE);
                }
                if (values != null && !values.isAllowed(buffer, offset, length, type.isMultipleValue()))
                {
                    return fail(SessionRejectReason.VALUE_IS_INCORRECT);
                }
            }
        }
        // The body checks against the message's fields; header and trailer against the whole
        // dictionary (anything the parse put there is a header or trailer tag); entries against the group.
        final boolean defined = owner == MessageStructure.BODY || owner >= 0 ? def.hasField(tag) : field != null;
        if (!defined && options.rejectsUndefined(tag))
        {
            return fail(owner == MessageStructure.BODY && field != null ?
                SessionRejectReason.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE : SessionRejectReason.INVALID_TAG_NUMBER);
        }
        if (isCount &&
            MessageStructure.parseJavaInt(buffer, offset, length) != entriesOf(owner, tag))
        {
            return fail(SessionRejectReason.INCORRECT_NUMINGROUP_COUNT_FOR_REPEATING_GROUP);
        }
        return true;
    }

    private boolean fail(final int reason)
    {
        failingReason = reason;
        return false;
    }

    /** QuickFIX/J keeps one value per tag in the header, trailer and group entries: the last one. */
    private boolean isReplacedLater(final int index)
    {
        final int owner = structure.owner(index);
        final int tag = message.tag(index);
        for (int j = index + 1, n = message.fieldCount(); j < n; j++)
        {
            if (structure.owner(j) == owner && message.tag(j) == tag)
            {
                return true;
            }
        }
        return false;
    }

    /** Position of a field in QuickFIX/J's iteration order of that part (its FieldMap order). */
    private static long orderKey(final int tag, final int owner, final StructureDef def)
    {
        if (owner >= 0)
        {
            final int position = ((GroupDef)def).position(tag);
            return position >= 0 ? position : NOT_IN_ORDER + tag;
        }
        if (owner == MessageStructure.TRAILER)
        {
            switch (tag)
            {
                case 93:
                    return 0;
                case 89:
                    return 1;
                case Fix.CHECK_SUM:
                    return 2;
                default:
                    return NOT_IN_ORDER + tag;
            }
        }
        return tag;
    }

    /** Entries of a group in a part, over all its occurrences there (QuickFIX/J's getGroupCount). */
    private long entriesOf(final int owner, final int countTag)
    {
        long entries = 0;
        for (int occurrence = 0; occurrence < structure.occurrenceCount(); occurrence++)
        {
            if (structure.occurrenceParent(occurrence) == owner && structure.occurrenceCountTag(occurrence) == countTag)
            {
                entries += structure.occurrenceInstances(occurrence);
            }
        }
        return entries;
    }

    private boolean isOccurrenceOf(final int occurrence, final int owner, final int countTag)
    {
        return structure.occurrenceParent(occurrence) == owner && structure.occurrenceCountTag(occurrence) == countTag;
    }

    /** The smallest NumInGroup tag above {@code after} with entries in the part, or MIN_VALUE (group order is by tag). */
    private int nextGroupTag(final int owner, final int after)
    {
        int next = Integer.MIN_VALUE;
        for (int occurrence = 0; occurrence < structure.occurrenceCount(); occurrence++)
        {
            if (structure.occurrenceParent(occurrence) == owner && structure.occurrenceInstances(occurrence) > 0)
            {
                final int tag = structure.occurrenceCountTag(occurrence);
                if (tag > after && (next == Integer.MIN_VALUE || tag < next))
                {
                    next = tag;
                }
            }
        }
        return next;
    }
}
