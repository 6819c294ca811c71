package org.fixlab.engine.store;

import java.nio.file.Path;

/** The three stores as test parameters, configured small so growth, remapping and eviction happen in tests. */
enum StoreKind
{
    MEMORY(StoreType.MEMORY),
    FILE(StoreType.FILE),
    MAPPED(StoreType.MAPPED);

    static final String SESSION_KEY = "FIX.4.4-SENDER-TARGET";

    private final StoreType type;

    StoreKind(final StoreType type)
    {
        this.type = type;
    }

    MessageStore open(final Path dir)
    {
        return MessageStores.open(type, dir, SESSION_KEY, options());
    }

    StoreOptions options()
    {
        return new StoreOptions().memoryCapacityBytes(1 << 20).mappedChunkBytes(1 << 16).indexCapacity(16);
    }

    /** The file whose records a crash can tear. */
    Path recordsFile(final Path dir)
    {
        return dir.resolve(SESSION_KEY + (this == FILE ? FileStore.BODY_SUFFIX : MappedStore.FILE_SUFFIX));
    }

    /** The file holding the two sequence number slots, and where they start in it. */
    Path seqNumsFile(final Path dir)
    {
        return dir.resolve(SESSION_KEY + (this == FILE ? FileStore.SEQ_NUMS_SUFFIX : MappedStore.FILE_SUFFIX));
    }

    /** Where the first record starts in {@link #recordsFile}. */
    long recordsOffset()
    {
        return this == FILE ? 0 : MappedStore.RECORDS_OFFSET;
    }
}
