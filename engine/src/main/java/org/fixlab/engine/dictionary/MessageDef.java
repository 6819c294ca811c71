package org.fixlab.engine.dictionary;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;

/** One message type of the dictionary: its MsgType(35), name, category and body fields. */
public final class MessageDef extends StructureDef
{
    private final String msgType;
    private final String name;
    private final boolean admin;

    MessageDef(
        final String msgType,
        final String name,
        final boolean admin,
        final IntHashSet fields,
        final int[] required,
        final Int2ObjectHashMap<GroupDef> groups)
    {
        super(fields, required, groups);
        this.msgType = msgType;
        this.name = name;
        this.admin = admin;
    }

    public String msgType()
    {
        return msgType;
    }

    /** The dictionary's name for the message, or null if it has none. */
    public String name()
    {
        return name;
    }

    /** True for msgcat="admin" (the session-level messages). */
    public boolean isAdmin()
    {
        return admin;
    }

    @Override
    public String toString()
    {
        return name + "(35=" + msgType + ")";
    }
}
