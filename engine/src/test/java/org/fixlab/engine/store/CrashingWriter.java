package org.fixlab.engine.store;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The child process of {@link CrashRecoveryTest}: opens a store and stores {@link TestMessages} as a
 * session would (store the message, advance the counters, end the duty cycle) until it is killed.
 *
 * <p>Arguments: the {@link StoreKind} name and the store directory.
 */
public final class CrashingWriter
{
    static final String OPENED = "opened";

    private CrashingWriter()
    {
    }

    public static void main(final String[] args)
    {
        final StoreKind kind = StoreKind.valueOf(args[0]);
        final MessageStore store = kind.open(Path.of(args[1]));
        // and whether a mapped store can map by address (the JVM opened for it, as the engine is deployed)
        System.out.println(OPENED + ' ' + store.nextSenderSeqNum() + ' ' + (null == JdkMmap.UNAVAILABLE));
        System.out.flush();
        for (int seqNum = store.nextSenderSeqNum(); ; seqNum++)
        {
            final UnsafeBuffer message = TestMessages.buffer(seqNum);
            store.storeSent(seqNum, message, 0, message.capacity());
            store.nextSenderSeqNum(seqNum + 1);
            store.nextTargetSeqNum(seqNum + 1);
            store.flush(System.nanoTime()); // the end of a duty cycle, as the engine's loop calls it
            if (seqNum % 16 == 0)
            {
                // Keeps the files to tens of MiB per run.
                LockSupport.parkNanos(1);
            }
        }
    }
}
