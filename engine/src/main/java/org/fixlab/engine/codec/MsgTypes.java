package org.fixlab.engine.codec;

/** The session-level (admin) MsgType(35) values, all single characters. */
public final class MsgTypes
{
    public static final char HEARTBEAT = '0';
    public static final char TEST_REQUEST = '1';
    public static final char RESEND_REQUEST = '2';
    public static final char REJECT = '3';
    public static final char SEQUENCE_RESET = '4';
    public static final char LOGOUT = '5';
    public static final char LOGON = 'A';

    private MsgTypes()
    {
    }

    /** True for the seven session-level message types. */
    public static boolean isAdmin(final char type)
    {
        switch (type)
        {
            case HEARTBEAT:
            case TEST_REQUEST:
            case RESEND_REQUEST:
            case REJECT:
            case SEQUENCE_RESET:
            case LOGOUT:
            case LOGON:
                return true;
            default:
                return false;
        }
    }
}
