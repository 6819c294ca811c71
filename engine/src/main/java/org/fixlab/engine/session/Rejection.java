package org.fixlab.engine.session;

/** A reusable description of why an inbound message is rejected: SessionRejectReason(373), RefTagID(371), Text(58). */
public final class Rejection
{
    /** No RefTagID. */
    public static final int NO_TAG = -1;

    private int reason;
    private int refTagId = NO_TAG;
    private String text;

    public Rejection set(final int reason, final int refTagId, final String text)
    {
        this.reason = reason;
        this.refTagId = refTagId;
        this.text = text;
        return this;
    }

    public int reason()
    {
        return reason;
    }

    public int refTagId()
    {
        return refTagId;
    }

    public String text()
    {
        return text;
    }

    @Override
    public String toString()
    {
        return text + " (reason " + reason + (refTagId == NO_TAG ? "" : ", tag " + refTagId) + ")";
    }
}
