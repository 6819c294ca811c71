package org.fixlab.engine.store;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
