package org.fixlab.engine.store;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The memory store's ring index and the persistent stores' chunked index. */
class SequenceIndexTest
{
    @Test
    void ringGivesASlotToTheNewerNumber()
    {
        final SequenceIndex index = new SequenceIndex(4);
        index.put(3, 30);
        index.put(7, 70);

        assertEquals(SequenceIndex.MISSING, index.position(3));
        assertEquals(70, index.position(7));
    }

    @Test
    void chunkedIndexKeepsEveryNumberHoweverFarApart()
    {
        final ChunkedSequenceIndex index = new ChunkedSequenceIndex(4);
        index.put(3, 30);
        index.put(7, 70);
        index.put(65_539, 655_390);
        index.put(Integer.MAX_VALUE, 1);
        index.put(7, 71); // the latest record of a number wins

        assertEquals(30, index.position(3));
        assertEquals(71, index.position(7));
        assertEquals(655_390, index.position(65_539));
        assertEquals(1, index.position(Integer.MAX_VALUE));
        assertEquals(ChunkedSequenceIndex.MISSING, index.position(4));
        assertEquals(ChunkedSequenceIndex.MISSING, index.position(1 << 20), "a chunk never written");
        assertEquals(ChunkedSequenceIndex.MISSING, index.position(-1));
        assertEquals(3, index.lowest());
        assertEquals(Integer.MAX_VALUE, index.highest());
        assertThrows(IllegalArgumentException.class, () -> index.put(-5, 1));
    }

    @Test
    void aClosedIndexHasFreedItsChunksAndReadsEveryNumberAsMissing()
    {
        final ChunkedSequenceIndex index = new ChunkedSequenceIndex(1 << 16);
        index.put(3, 30);
        index.put(1 << 20, 40);
        index.close();
        assertEquals(ChunkedSequenceIndex.MISSING, index.position(3));
        assertEquals(ChunkedSequenceIndex.MISSING, index.position(1 << 20));
        index.close(); // twice is harmless
    }

    @Test
    void chunkedIndexForgetsOnClearAndStartsAgain()
    {
        final ChunkedSequenceIndex index = new ChunkedSequenceIndex(1 << 16);
        index.put(1, 10);
        index.put(200_000, 20);
        index.clear();

        assertEquals(ChunkedSequenceIndex.MISSING, index.position(1));
        assertEquals(ChunkedSequenceIndex.MISSING, index.position(200_000));
        assertEquals(Integer.MAX_VALUE, index.lowest(), "empty: lowest above highest");
        assertEquals(0, index.highest());
        index.put(2, 11);
        assertEquals(11, index.position(2));
        assertEquals(2, index.lowest());
    }

    @Test
    void stepsReadyTheNextChunkOnceTheHighestNumberIsPastTheMiddleOfItsChunk()
    {
        try (ChunkedSequenceIndex index = new ChunkedSequenceIndex(1 << 16)) // chunk 0, numbers 0 to 65,535
        {
            index.put(32_767, 1);
            assertFalse(index.stepAhead(), "in the first half of its chunk: nothing to ready yet");
            index.put(32_768, 2);
            int steps = 0;
            while (index.stepAhead())
            {
                steps++;
            }
            assertEquals(9, steps, "an allocation, then 512 KiB filled 64 KiB a step");
            assertFalse(index.stepAhead(), "the next chunk is in place");

            for (int seqNum = 65_536; seqNum < 65_536 + 16; seqNum++)
            {
                assertEquals(ChunkedSequenceIndex.MISSING, index.position(seqNum), "a readied chunk holds no number");
            }
            assertEquals(ChunkedSequenceIndex.MISSING, index.position((1 << 17) - 1));
            index.put(65_536, 3);
            index.put((1 << 17) - 1, 4);
            assertEquals(3, index.position(65_536));
            assertEquals(4, index.position((1 << 17) - 1));
            assertEquals(2, index.position(32_768));
            assertEquals(0, index.chunksAllocatedInPut(), "put found its chunk readied");
        }
    }

    @Test
    void aNumberThatNeedsTheChunkBeforeItIsReadiedGetsItFilledThere()
    {
        try (ChunkedSequenceIndex index = new ChunkedSequenceIndex(1 << 16))
        {
            index.put(40_000, 1);
            assertTrue(index.stepAhead()); // allocated
            assertTrue(index.stepAhead()); // the first 64 KiB filled
            index.put(70_000, 2);

            assertEquals(1, index.chunksAllocatedInPut());
            assertEquals(2, index.position(70_000));
            for (int seqNum = 65_536; seqNum < 1 << 17; seqNum++)
            {
                if (seqNum != 70_000)
                {
                    assertEquals(ChunkedSequenceIndex.MISSING, index.position(seqNum), "number " + seqNum);
                }
            }
            assertFalse(index.stepAhead(), "the highest number's chunk is in its first half");
        }
    }
}
