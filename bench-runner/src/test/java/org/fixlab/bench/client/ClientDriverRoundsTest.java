package org.fixlab.bench.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/**
 * Where the client's warm-up rounds end. An answered run drains every 10,000 orders, the last time a pre-roll of
 * warm-up orders before the measured ones; a stream has a few long rounds,
 * because each boundary reads every other task's CPU time from /proc, and 300 of those readings in a stream's
 * warm-up slowed the measured stream after it.
 */
class ClientDriverRoundsTest
{
    @Test
    void anAnsweredRunsWarmUpIsDrainedEveryTenThousandOrders()
    {
        final int[] ends = ClientDriver.roundEnds(150_000, 200_000, ClientDriver.MAX_WARMUP_ROUND);
        assertArrayEquals(new int[] {10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000, 100_000,
            110_000, 120_000, 130_000, 140_000, 150_000, 200_000}, ends);
    }

    @Test
    void anAnsweredRunsLastRoundOpensWithThePreRollOfWarmUpOrders()
    {
        assertArrayEquals(new int[] {10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000, 100_000,
            110_000, 120_000, 130_000, 140_000, 150_000 - ClientDriver.PRE_ROLL, 200_000},
            ClientDriver.answeredRoundEnds(150_000, 200_000));
        // a warm-up no longer than the pre-roll is all pre-roll: no pause before the measured orders
        assertArrayEquals(new int[] {3_000}, ClientDriver.answeredRoundEnds(ClientDriver.PRE_ROLL, 3_000));
        assertArrayEquals(new int[] {1_000}, ClientDriver.answeredRoundEnds(10, 1_000));
    }

    @Test
    void aStreamsWarmUpHasFiveRoundsHoweverLongItIs()
    {
        assertArrayEquals(new int[] {600_000, 1_200_000, 1_800_000, 2_400_000, 3_000_000, 4_000_000},
            ClientDriver.roundEnds(3_000_000, 4_000_000, Integer.MAX_VALUE));
    }

    @Test
    void aShortWarmUpStillHasRoundsAndNoWarmUpHasOnlyTheMeasuredOne()
    {
        assertArrayEquals(new int[] {2, 4, 6, 8, 10, 12, 13, 20}, ClientDriver.roundEnds(13, 20, Integer.MAX_VALUE));
        assertArrayEquals(new int[] {1, 2, 3, 3_000}, ClientDriver.roundEnds(3, 3_000, ClientDriver.MAX_WARMUP_ROUND));
        assertArrayEquals(new int[] {500}, ClientDriver.roundEnds(0, 500, Integer.MAX_VALUE));
    }
}
