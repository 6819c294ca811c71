package org.fixlab.engine.store;

import java.nio.file.Path;

/** Opens the {@link MessageStore} a session's configuration asks for. */
public final class MessageStores
{
    private MessageStores()
    {
    }

    /**
     * @param dir        where the persistent stores keep their files; unused by {@link StoreType#MEMORY}.
     * @param sessionKey names the session's files, e.g. "FIX.4.4-SENDER-TARGET": letters, digits, '.', '_', '-'.
     */
    public static MessageStore open(final StoreType type, final Path dir, final String sessionKey, final StoreOptions options)
    {
        return switch (type)
        {
            case MEMORY -> new MemoryStore(options.memoryCapacityBytes());
            case FILE -> FileStore.open(dir, sessionKey, options);
            case MAPPED -> MappedStore.open(dir, sessionKey, options);
        };
    }
}
