package org.fixlab.engine.dictionary;

/**
 * Why a message failed validation: a reusable, mutable result that {@link DictionaryValidator}
 * fills instead of throwing, so a reject costs no allocation either. Read it before the next
 * validation overwrites it.
 */
public final class ValidationFailure
{
    /** {@link #refTagId} when no tag is referenced (QuickFIX/J's "no field" value). */
    public static final int NO_TAG = -1;

    private int reason = -1;
    private int refTagId = NO_TAG;
    private String text = "";
    private boolean textNamesField;
    private boolean garbled;

    /** A SessionRejectReason(373) code; meaningless when {@link #isGarbled()}. */
    public int reason()
    {
        return reason;
    }

    /** The tag to send as RefTagID(371), {@link #NO_TAG} when none. May be 0 or negative (an invalid tag). */
    public int refTagId()
    {
        return refTagId;
    }

    /**
     * Whether QuickFIX/J would put 371 on the Reject: for any positive tag and for every
     * "Invalid tag number" (so 371=0 and 371=-1 are sent too).
     */
    public boolean hasRefTagId()
    {
        return refTagId > 0 || reason == SessionRejectReason.INVALID_TAG_NUMBER;
    }

    /** The constant start of Text(58); {@link #appendText} gives QuickFIX/J's full wording. */
    public String text()
    {
        return text;
    }

    /**
     * True when QuickFIX/J would not reject but silently drop the message as garbled (its
     * InvalidMessage): the first three fields are not 8, 9, 35, a tag does not fit an int, a
     * NumInGroup value is not an integer, a data field (RawData, Signature, ...) comes without its
     * length field or its length runs past the message, or CheckSum(10) was swallowed by one.
     * The MsgSeqNum is then not consumed.
     */
    public boolean isGarbled()
    {
        return garbled;
    }

    /**
     * Appends Text(58) exactly as QuickFIX/J 2.3.2 words it: the text, then ", field=N" unless
     * no tag is referenced or the text already names its fields (the group delimiter text).
     * Garbage-free when {@code sb} has capacity.
     */
    public StringBuilder appendText(final StringBuilder sb)
    {
        sb.append(text);
        if (textNamesField && refTagId != NO_TAG)
        {
            sb.append(", field=").append(refTagId);
        }
        return sb;
    }

    void reject(final int reason, final int refTagId)
    {
        set(reason, refTagId, SessionRejectReason.text(reason), true, false);
    }

    void reject(final int reason, final int refTagId, final String customText)
    {
        set(reason, refTagId, customText, false, false);
    }

    void garbled(final String why)
    {
        set(-1, NO_TAG, why, false, true);
    }

    void clear()
    {
        set(-1, NO_TAG, "", false, false);
    }

    private void set(final int reason, final int refTagId, final String text, final boolean textNamesField, final boolean garbled)
    {
        this.reason = reason;
        this.refTagId = refTagId;
        this.text = text;
        this.textNamesField = textNamesField;
        this.garbled = garbled;
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(96);
        if (garbled)
        {
            return sb.append("garbled: ").append(text).toString();
        }
        sb.append("373=").append(reason).append(" 371=").append(refTagId).append(" 58=");
        return appendText(sb).toString();
    }
}
