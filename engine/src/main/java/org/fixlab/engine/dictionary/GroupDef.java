package org.fixlab.engine.dictionary;

import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;

/**
 * A repeating group: its NumInGroup tag, the delimiter (the first field of every entry) and the
 * member order that "Out of order repeating group members" is checked against.
 */
public final class GroupDef extends StructureDef
{
    private final int countTag;
    private final int delimiterTag;
    private final int[] memberOrder;
    private final Int2IntHashMap positions = new Int2IntHashMap(-1);
    private final String missingDelimiterText;

    GroupDef(
        final int countTag,
        final int delimiterTag,
        final int[] memberOrder,
        final IntHashSet fields,
        final int[] required,
        final Int2ObjectHashMap<GroupDef> groups)
    {
        super(fields, required, groups);
        this.countTag = countTag;
        this.delimiterTag = delimiterTag;
        this.memberOrder = memberOrder;
        for (int i = 0; i < memberOrder.length; i++)
        {
            positions.put(memberOrder[i], i);
        }
        // Built once here so that rejecting an entry without its delimiter allocates nothing.
        this.missingDelimiterText = "The group " + countTag + " must set the delimiter field " + delimiterTag;
    }

    public int countTag()
    {
        return countTag;
    }

    public int delimiterTag()
    {
        return delimiterTag;
    }

    /** Member tags in dictionary order (nested components flattened, nested groups by count tag). */
    public int[] memberOrder()
    {
        return memberOrder.clone();
    }

    /** The member's position in {@link #memberOrder()}, or -1 if it is not a member. */
    public int position(final int tag)
    {
        return positions.get(tag);
    }

    String missingDelimiterText()
    {
        return missingDelimiterText;
    }

    @Override
    public String toString()
    {
        return "group " + countTag + " (delimiter " + delimiterTag + ")";
    }
}
