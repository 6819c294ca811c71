package org.fixlab.engine.store;

import org.agrona.DirectBuffer;

/**
 * Keeps one session's sequence numbers and the messages it sent, so that a ResendRequest can be
 * answered and a restarted process continues where it stopped.
 *
 * <p>Owned by the session's thread: implementations are not thread-safe. Every method on the hot
 * path ({@link #storeSent}, the sequence number setters) must not allocate in steady state.
 */
public interface MessageStore extends AutoCloseable
{
    /** The MsgSeqNum(34) the session will put on its next outbound message. Starts at 1. */
    int nextSenderSeqNum();

    /** The MsgSeqNum(34) the session expects on the next inbound message. Starts at 1. */
    int nextTargetSeqNum();

    void nextSenderSeqNum(int seqNum);

    void nextTargetSeqNum(int seqNum);

    /**
     * Records a complete outbound message (from 8= up to and including the SOH after 10=) under its
     * MsgSeqNum and advances nothing else: the session sets the sequence numbers itself.
     */
    void storeSent(int seqNum, DirectBuffer buffer, int offset, int length);

    /**
     * Calls {@code handler} for every stored message with {@code fromSeqNum <= seqNum <= toSeqNum},
     * in ascending order. Sequence numbers that were never stored (admin messages a store skips,
     * messages evicted from a bounded store, or lost before a crash) are simply not reported: the
     * session fills those holes with SequenceReset-GapFill. The buffer passed to the handler is only
     * valid during the call.
     *
     * @return the number of messages reported.
     */
    int replay(int fromSeqNum, int toSeqNum, SentMessageHandler handler);

    /** Both sequence numbers back to 1 and every stored message discarded (ResetSeqNumFlag, reset on disconnect). */
    void reset();

    /**
     * Hands what the store holds back in memory to the operating system: the file and mapped stores
     * write the sequence numbers a duty cycle changed once, here, rather than at each change. The
     * transport calls it before it writes to the socket, so no sequence number a peer can have seen is
     * reused after a crash of the process. A no-op for stores that hold nothing back.
     */
    default void writePending()
    {
    }

    /**
     * Called on every duty cycle of the session's thread with that loop's clock: writes what is
     * pending ({@link #writePending()}), then under
     * {@link SyncPolicy#INTERVAL} forces what was written since the last force if the interval has
     * passed; otherwise nothing to do ({@link SyncPolicy#NONE} leaves it to the OS,
     * {@link SyncPolicy#EVERY_MESSAGE} has forced already, memory has no device). No system call and
     * no allocation unless a force is due, or the mapped store takes a step of readying its next window
     * (on a cycle that stored nothing: a write of 64 KiB, or once a window a mapping or an unmapping).
     *
     * @param nowNanos a monotonic time from the caller's clock; only differences between calls matter.
     */
    void flush(long nowNanos);

    /**
     * Forces what the sync policy still owes, then releases files and mappings. Idempotent; every
     * other method throws {@link IllegalStateException} afterwards.
     */
    @Override
    void close();

    @FunctionalInterface
    interface SentMessageHandler
    {
        void onMessage(int seqNum, DirectBuffer buffer, int offset, int length);
    }
}
