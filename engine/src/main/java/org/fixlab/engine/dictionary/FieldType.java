package org.fixlab.engine.dictionary;

/**
 * The field types a QuickFIX dictionary may name (QuickFIX/J 2.3.2's set), each with the syntax
 * check that validation applies to it. Types without a check are free text to the validator.
 */
public enum FieldType
{
    UNKNOWN(Format.NONE),
    STRING(Format.NONE),
    CHAR(Format.CHAR),
    PRICE(Format.DECIMAL),
    INT(Format.INT),
    AMT(Format.DECIMAL),
    QTY(Format.DECIMAL),
    CURRENCY(Format.NONE),
    MULTIPLEVALUESTRING(Format.NONE),
    MULTIPLESTRINGVALUE(Format.NONE),
    MULTIPLECHARVALUE(Format.NONE),
    EXCHANGE(Format.NONE),
    UTCTIMESTAMP(Format.UTC_TIMESTAMP),
    BOOLEAN(Format.BOOLEAN),
    LOCALMKTDATE(Format.NONE),
    DATA(Format.NONE),
    FLOAT(Format.DECIMAL),
    PRICEOFFSET(Format.DECIMAL),
    MONTHYEAR(Format.NONE),
    DAYOFMONTH(Format.NONE),
    // QuickFIX/J checks UTCDATE but not UTCDATEONLY; kept so that rejects match it.
    UTCDATEONLY(Format.NONE),
    UTCDATE(Format.UTC_DATE),
    UTCTIMEONLY(Format.UTC_TIME_ONLY),
    TIME(Format.UTC_TIMESTAMP),
    NUMINGROUP(Format.INT),
    PERCENTAGE(Format.DECIMAL),
    SEQNUM(Format.INT),
    LENGTH(Format.INT),
    COUNTRY(Format.NONE);

    /** The syntax check behind a type. */
    enum Format
    {
        NONE, INT, DECIMAL, BOOLEAN, CHAR, UTC_DATE, UTC_TIME_ONLY, UTC_TIMESTAMP
    }

    private final Format format;

    FieldType(final Format format)
    {
        this.format = format;
    }

    Format format()
    {
        return format;
    }

    /** Whether values of this type are space-separated lists, each item checked against the enum. */
    public boolean isMultipleValue()
    {
        return this == MULTIPLEVALUESTRING || this == MULTIPLESTRINGVALUE;
    }

    /** The type with this dictionary name, or null. */
    static FieldType byName(final String name)
    {
        for (final FieldType type : VALUES)
        {
            if (type.name().equals(name))
            {
                return type;
            }
        }
        return null;
    }

    private static final FieldType[] VALUES = values();
}
