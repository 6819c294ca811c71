package org.fixlab.engine.session;

import java.nio.file.Path;

import org.fixlab.engine.store.StoreType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The resend benchmark's set-up on a small count, for every store: the whole history is resent (each
 * MsgSeqNum once) and new messages went out while it ran. No speed is asserted.
 */
class ResendThroughputBenchmarkTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void aSmallResendRunsToTheEndWhileNewMessagesAreSent(final StoreType type)
    {
        final ResendThroughputBenchmark.Result result = ResendThroughputBenchmark.measure(type, dir, 2_000);

        assertEquals(2_001, result.resent(), "the Logon as a GapFill and the 2,000 orders, each once");
        assertTrue(result.dutyCycles() > 1, "paced over several duty cycles: " + result.dutyCycles());
        assertTrue(result.newMessagesSent() >= result.dutyCycles() - 1,
            result.newMessagesSent() + " new messages in " + result.dutyCycles() + " duty cycles");
        assertTrue(result.messagesPerSecond() > 0);
    }
}
