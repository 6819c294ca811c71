package org.fixlab.engine.session;

import org.fixlab.engine.dictionary.ValidationFailure;

/**
 * A reusable description of why an inbound message is rejected: SessionRejectReason(373), the
 * RefTagID(371) if there is one, and Text(58). Filled without allocation, from the session's own
 * checks or from a dictionary {@link ValidationFailure}.
 */
public final class Rejection
{
    private final StringBuilder text = new StringBuilder(128);
    private int reason;
    private int refTagId;
    private boolean hasRefTagId;

    public Rejection set(final int reason, final int refTagId, final CharSequence text)
    {
        this.reason = reason;
        this.refTagId = refTagId;
        this.hasRefTagId = true;
        this.text.setLength(0);
        this.text.append(text);
        return this;
    }

    public Rejection setWithoutTag(final int reason, final CharSequence text)
    {
        set(reason, 0, text);
        hasRefTagId = false;
        return this;
    }

    public Rejection set(final ValidationFailure failure)
    {
        reason = failure.reason();
        refTagId = failure.refTagId();
        hasRefTagId = failure.hasRefTagId();
        text.setLength(0);
        failure.appendText(text);
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

    public boolean hasRefTagId()
    {
        return hasRefTagId;
    }

    public CharSequence text()
    {
        return text;
    }

    @Override
    public String toString()
    {
        return text + " (reason " + reason + (hasRefTagId ? ", tag " + refTagId : "") + ")";
    }
}
