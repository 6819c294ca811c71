package org.fixlab.engine.dictionary;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;

/**
 * The fields a part of a message may hold — the header, the trailer, one message type's body, or
 * one repeating group's entries — with the required ones and the repeating groups that start in it.
 * Components are already expanded.
 */
public class StructureDef
{
    private final IntHashSet fields;
    private final int[] required;
    private final Int2ObjectHashMap<GroupDef> groups;

    StructureDef(final IntHashSet fields, final int[] required, final Int2ObjectHashMap<GroupDef> groups)
    {
        this.fields = fields;
        this.required = required;
        this.groups = groups;
    }

    /** Whether the tag may appear directly here (group entries' fields belong to their group). */
    public boolean hasField(final int tag)
    {
        return fields.contains(tag);
    }

    public boolean isRequired(final int tag)
    {
        for (final int t : required)
        {
            if (t == tag)
            {
                return true;
            }
        }
        return false;
    }

    /** The group whose NumInGroup field is this tag, or null. */
    public GroupDef group(final int countTag)
    {
        return groups.get(countTag);
    }

    public int fieldCount()
    {
        return fields.size();
    }

    /**
     * The required tags in the order QuickFIX/J checks them (its HashSet iteration order), which
     * decides the 371 of "Required tag missing" when several are missing.
     */
    int[] requiredInCheckOrder()
    {
        return required;
    }
}
