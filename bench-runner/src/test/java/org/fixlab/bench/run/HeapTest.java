package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class HeapTest
{
    @Test
    void whatIsLiveBeforeARunLeavesTheYoungGeneration()
    {
        // 4 MB of sample arrays, each below any collector's large-object size, as a run allocates them before its start
        final List<long[]> samples = new ArrayList<>();
        for (int i = 0; i < 512; i++)
        {
            samples.add(new long[1024]);
        }
        Heap.promoteLongLived();
        final long young = youngGenerationUsed();
        assertTrue(young < 1 << 20, "the young generation still holds " + young + " bytes: a young collection would copy them");
        assertEquals(512, samples.size(), "the arrays are still live");
    }

    /** Eden and survivor spaces (G1's and ParallelGC's pools alike), in bytes. */
    private static long youngGenerationUsed()
    {
        long used = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP && (pool.getName().contains("Eden") || pool.getName().contains("Survivor")))
            {
                used += pool.getUsage().getUsed();
            }
        }
        return used;
    }
}
