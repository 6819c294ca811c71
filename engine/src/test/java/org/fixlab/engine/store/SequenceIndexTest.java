package org.fixlab.engine.store;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SequenceIndexTest
{
    @Test
    void growsUntilSparseNumbersNoLongerCollide()
    {
        final SequenceIndex index = new SequenceIndex(4, false);
        index.put(3, 30);
        index.put(7, 70);
        index.put(1003, 10_030);

        assertEquals(30, index.position(3));
        assertEquals(70, index.position(7));
        assertEquals(10_030, index.position(1003));
        assertEquals(SequenceIndex.MISSING, index.position(4));
        assertEquals(3, index.lowest());
        assertEquals(1003, index.highest());
    }

    @Test
    void boundedIndexGivesASlotToTheNewerNumber()
    {
        final SequenceIndex index = new SequenceIndex(4, true);
        index.put(3, 30);
        index.put(7, 70);

        assertEquals(SequenceIndex.MISSING, index.position(3));
        assertEquals(70, index.position(7));
    }

    @Test
    void removesOnlyTheRecordItWasAskedToRemove()
    {
        final SequenceIndex index = new SequenceIndex(8, true);
        index.put(2, 20);
        index.put(2, 25);
        index.removeIfAt(2, 20);

        assertEquals(25, index.position(2));
    }

    @Test
    void refusesASpanWiderThanItCanHold()
    {
        final SequenceIndex index = new SequenceIndex(4, false);
        index.put(1, 1);
        assertThrows(IllegalStateException.class, () -> index.put(1 + (1 << 30) + 4, 2), "a colliding seqNum 2^30 away");
    }
}
