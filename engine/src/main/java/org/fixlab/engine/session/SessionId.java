package org.fixlab.engine.session;

import org.fixlab.engine.codec.FixVersion;

/** A session as FIX identifies it: BeginString plus both CompIDs, seen from this side. */
public record SessionId(FixVersion version, String senderCompId, String targetCompId)
{
    public SessionId
    {
        if (senderCompId == null || senderCompId.isEmpty() || targetCompId == null || targetCompId.isEmpty())
        {
            throw new IllegalArgumentException("SenderCompID and TargetCompID must not be empty");
        }
    }

    /** A stable name for files and logs, e.g. {@code FIX.4.4-ISLD-TW}. */
    public String key()
    {
        return version.beginString() + "-" + senderCompId + "-" + targetCompId;
    }

    @Override
    public String toString()
    {
        return key();
    }
}
