package org.fixlab.engine.store;

/** When a persistent store forces its writes to the storage device. */
public enum SyncPolicy
{
    /** Leave it to the OS page cache: survives a process crash, not a power loss. Fastest. */
    NONE,
    /** fsync / force after every stored message and sequence number change: survives power loss. */
    EVERY_MESSAGE,
    /** force at most once per configured interval, from {@link MessageStore#flush(long)} calls on the duty cycle. */
    INTERVAL
}
