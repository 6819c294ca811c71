package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The arithmetic that turns both sides' timestamps into each scenario's latency, on hand-made timestamps. */
class RunResultsTest
{
    // two warm-up orders then two measured: t1 send, due, t2 write, t4 reply on the client
    private static final long[] SEND = {100, 200, 1_000, 2_050};
    private static final long[] DUE = {100, 200, 1_000, 2_000};
    private static final long[] WRITE = {110, 210, 1_007, 2_061};
    private static final long[] REPLY = {150, 260, 1_300, 2_400};
    private static final Map<String, long[]> SERVER = Map.of(
        "t3", new long[] {120, 220, 1_100, 2_100},
        "t4", new long[] {125, 226, 1_120, 2_130},
        "t2", new long[] {130, 240, 1_180, 2_200});

    private static RunResults.Latencies of(final Scenario scenario, final boolean paced)
    {
        return RunResults.latencies(scenario, paced, 2, 2, SEND, DUE, WRITE, REPLY, SERVER);
    }

    @Test
    void pacedRoundTripDropsTheWarmUpAndCountsFromWhenTheOrderWasDue()
    {
        final RunResults.Latencies l = of(Scenario.RTT_ECHO, true);

        assertArrayEquals(new long[] {0, 1_050}, l.sendNs());
        assertArrayEquals(new long[] {300, 350}, l.latency());
        assertArrayEquals(new long[] {300, 400}, l.fromIntended(), "the second order was sent 50 ns late");
    }

    @Test
    void closedLoopLatencyFromIntendedIsTheLatency()
    {
        final RunResults.Latencies l = of(Scenario.CONVERSION, false);

        assertArrayEquals(new long[] {300, 350}, l.latency());
        assertArrayEquals(l.latency(), l.fromIntended());
    }

    @Test
    void internalPointsTakeTheirOwnPairOfTimestamps()
    {
        assertArrayEquals(new long[] {7, 11}, of(Scenario.INTERNAL_SEND, false).latency(), "t1 -> t2 on the client");
        assertArrayEquals(new long[] {20, 30}, of(Scenario.INTERNAL_RECEIVE, false).latency(), "t3 -> t4 on the server");
        assertArrayEquals(new long[] {80, 100}, of(Scenario.INTERNAL_RECEIVE_SEND, false).latency(), "t3 -> t2 on the server");
        assertArrayEquals(new long[] {120, 80}, of(Scenario.INTERNAL_SEND_RECEIVE, false).latency(), "client t1 -> server t4");
        final RunResults.Latencies send = of(Scenario.INTERNAL_SEND, false);
        assertArrayEquals(new long[] {0, 1_050}, send.sendNs(), "internal points count from the first measured send");
        assertArrayEquals(send.latency(), send.fromIntended());
    }

    @Test
    void aMissingTimestampIsAnErrorNotANegativeSample()
    {
        final long[] noReply = {150, 260, 1_300, 0};
        final BenchException ex = assertThrows(BenchException.class,
            () -> RunResults.latencies(Scenario.RTT_ECHO, true, 2, 2, SEND, DUE, WRITE, noReply, SERVER));
        assertTrue(ex.getMessage().contains("message 1 has a negative latency"), ex.getMessage());
    }
}
