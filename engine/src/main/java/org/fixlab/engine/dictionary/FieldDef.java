package org.fixlab.engine.dictionary;

import java.util.Set;

/** One field of the dictionary: tag, name, type and, if enumerated, its allowed values. */
public final class FieldDef
{
    private final int tag;
    private final String name;
    private final FieldType type;
    private final EnumValues enumValues;

    FieldDef(final int tag, final String name, final FieldType type, final EnumValues enumValues)
    {
        this.tag = tag;
        this.name = name;
        this.type = type;
        this.enumValues = enumValues;
    }

    public int tag()
    {
        return tag;
    }

    public String name()
    {
        return name;
    }

    public FieldType type()
    {
        return type;
    }

    public boolean hasEnumValues()
    {
        return enumValues != null;
    }

    /** The enumerated values in dictionary order; empty when the field is not enumerated. */
    public Set<String> enumValues()
    {
        return enumValues == null ? Set.of() : enumValues.values();
    }

    EnumValues enumValueSet()
    {
        return enumValues;
    }

    @Override
    public String toString()
    {
        return name + "(" + tag + ", " + type + ")";
    }
}
