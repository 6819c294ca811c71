package org.fixlab.engine.session;

/** SessionRejectReason(373) codes and the texts the engine sends with them (QuickFIX/J's wording, which peers match on). */
public final class SessionRejectReason
{
    public static final int INVALID_TAG_NUMBER = 0;
    public static final int REQUIRED_TAG_MISSING = 1;
    public static final int TAG_NOT_DEFINED_FOR_MESSAGE_TYPE = 2;
    public static final int UNDEFINED_TAG = 3;
    public static final int TAG_SPECIFIED_WITHOUT_A_VALUE = 4;
    public static final int VALUE_IS_INCORRECT = 5;
    public static final int INCORRECT_DATA_FORMAT_FOR_VALUE = 6;
    public static final int COMPID_PROBLEM = 9;
    public static final int SENDINGTIME_ACCURACY_PROBLEM = 10;
    public static final int INVALID_MSGTYPE = 11;
    public static final int TAG_APPEARS_MORE_THAN_ONCE = 13;
    public static final int TAG_SPECIFIED_OUT_OF_REQUIRED_ORDER = 14;
    public static final int REPEATING_GROUP_FIELDS_OUT_OF_ORDER = 15;
    public static final int INCORRECT_NUMINGROUP_COUNT_FOR_REPEATING_GROUP = 16;

    private SessionRejectReason()
    {
    }

    public static String text(final int reason)
    {
        switch (reason)
        {
            case INVALID_TAG_NUMBER: return "Invalid tag number";
            case REQUIRED_TAG_MISSING: return "Required tag missing";
            case TAG_NOT_DEFINED_FOR_MESSAGE_TYPE: return "Tag not defined for this message type";
            case UNDEFINED_TAG: return "Undefined Tag";
            case TAG_SPECIFIED_WITHOUT_A_VALUE: return "Tag specified without a value";
            case VALUE_IS_INCORRECT: return "Value is incorrect (out of range) for this tag";
            case INCORRECT_DATA_FORMAT_FOR_VALUE: return "Incorrect data format for value";
            case COMPID_PROBLEM: return "CompID problem";
            case SENDINGTIME_ACCURACY_PROBLEM: return "SendingTime accuracy problem";
            case INVALID_MSGTYPE: return "Invalid MsgType";
            case TAG_APPEARS_MORE_THAN_ONCE: return "Tag appears more than once";
            case TAG_SPECIFIED_OUT_OF_REQUIRED_ORDER: return "Tag specified out of required order";
            case REPEATING_GROUP_FIELDS_OUT_OF_ORDER: return "Out of order repeating group members";
            case INCORRECT_NUMINGROUP_COUNT_FOR_REPEATING_GROUP: return "Incorrect NumInGroup count for repeating group";
            default: return "Session reject reason " + reason;
        }
    }
}
