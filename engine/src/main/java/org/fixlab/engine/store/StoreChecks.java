package org.fixlab.engine.store;

/** Argument checks every store applies the same way, with messages that name the store and the rule. */
final class StoreChecks
{
    private StoreChecks()
    {
    }

    static void checkMessage(final int seqNum, final int length, final int maxLength, final String store)
    {
        if (seqNum < 1)
        {
            throw new IllegalArgumentException(store + ".storeSent: MsgSeqNum must be at least 1, got " + seqNum);
        }
        if (length < 0 || length > maxLength)
        {
            throw new IllegalArgumentException(store + ".storeSent: message of " + length + " bytes for MsgSeqNum " +
                seqNum + " is outside [0, " + maxLength + "]: configure a larger store");
        }
    }

    static void checkOpen(final boolean closed, final String store)
    {
        if (closed)
        {
            throw new IllegalStateException(store + " is closed: open a new store for the session instead of reusing this one");
        }
    }
}
