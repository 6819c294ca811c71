package org.fixlab.engine.dictionary;

/**
 * What {@link DictionaryValidator} checks beyond the dictionary itself. Each option matches the
 * QuickFIX/J session setting of the same meaning; the defaults are QuickFIX/J's. Fluent and
 * mutable while configuring: the validator copies the values when it is created.
 */
public final class ValidationOptions
{
    /** QuickFIX/J ValidateFieldsOutOfOrder: a header field after the first body field is rejected (373=14). */
    public static final boolean DEFAULT_VALIDATE_FIELDS_OUT_OF_ORDER = true;
    /** QuickFIX/J ValidateFieldsHaveValues: an empty value is rejected (373=4). */
    public static final boolean DEFAULT_VALIDATE_FIELDS_HAVE_VALUES = true;
    /** QuickFIX/J ValidateUserDefinedFields: tags >= 5000 must be defined for the message like any other. */
    public static final boolean DEFAULT_VALIDATE_USER_DEFINED_FIELDS = true;
    /** QuickFIX/J AllowUnknownMsgFields: tags below 5000 not defined for the message are accepted. */
    public static final boolean DEFAULT_ALLOW_UNKNOWN_MESSAGE_FIELDS = false;
    /** QuickFIX/J ValidateUnorderedGroupFields: group entry fields must follow dictionary order (373=15). */
    public static final boolean DEFAULT_VALIDATE_UNORDERED_GROUP_FIELDS = true;

    /** The first tag of the user-defined range, which {@link #validateUserDefinedFields} governs. */
    public static final int USER_DEFINED_TAG_MIN = 5000;

    private boolean validateFieldsOutOfOrder = DEFAULT_VALIDATE_FIELDS_OUT_OF_ORDER;
    private boolean validateFieldsHaveValues = DEFAULT_VALIDATE_FIELDS_HAVE_VALUES;
    private boolean validateUserDefinedFields = DEFAULT_VALIDATE_USER_DEFINED_FIELDS;
    private boolean allowUnknownMessageFields = DEFAULT_ALLOW_UNKNOWN_MESSAGE_FIELDS;
    private boolean validateUnorderedGroupFields = DEFAULT_VALIDATE_UNORDERED_GROUP_FIELDS;

    public ValidationOptions validateFieldsOutOfOrder(final boolean value)
    {
        validateFieldsOutOfOrder = value;
        return this;
    }

    public boolean validateFieldsOutOfOrder()
    {
        return validateFieldsOutOfOrder;
    }

    public ValidationOptions validateFieldsHaveValues(final boolean value)
    {
        validateFieldsHaveValues = value;
        return this;
    }

    public boolean validateFieldsHaveValues()
    {
        return validateFieldsHaveValues;
    }

    public ValidationOptions validateUserDefinedFields(final boolean value)
    {
        validateUserDefinedFields = value;
        return this;
    }

    public boolean validateUserDefinedFields()
    {
        return validateUserDefinedFields;
    }

    public ValidationOptions allowUnknownMessageFields(final boolean value)
    {
        allowUnknownMessageFields = value;
        return this;
    }

    public boolean allowUnknownMessageFields()
    {
        return allowUnknownMessageFields;
    }

    public ValidationOptions validateUnorderedGroupFields(final boolean value)
    {
        validateUnorderedGroupFields = value;
        return this;
    }

    public boolean validateUnorderedGroupFields()
    {
        return validateUnorderedGroupFields;
    }

    /**
     * Whether a tag that is not defined where it appears is an error: below 5000 unless unknown
     * fields are allowed, from 5000 only if user-defined fields are validated.
     */
    boolean rejectsUndefined(final int tag)
    {
        return tag < USER_DEFINED_TAG_MIN ? !allowUnknownMessageFields : validateUserDefinedFields;
    }

    ValidationOptions copy()
    {
        return new ValidationOptions()
            .validateFieldsOutOfOrder(validateFieldsOutOfOrder)
            .validateFieldsHaveValues(validateFieldsHaveValues)
            .validateUserDefinedFields(validateUserDefinedFields)
            .allowUnknownMessageFields(allowUnknownMessageFields)
            .validateUnorderedGroupFields(validateUnorderedGroupFields);
    }

    @Override
    public String toString()
    {
        return "ValidationOptions[validateFieldsOutOfOrder=" + validateFieldsOutOfOrder +
            ", validateFieldsHaveValues=" + validateFieldsHaveValues +
            ", validateUserDefinedFields=" + validateUserDefinedFields +
            ", allowUnknownMessageFields=" + allowUnknownMessageFields +
            ", validateUnorderedGroupFields=" + validateUnorderedGroupFields + "]";
    }
}
