package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import net.openhft.affinity.Affinity;
import org.junit.jupiter.api.Test;

/** The probe on this machine's real CPUs: two pinned threads and a cache line between them. */
class CoreToCoreProbeTest
{
    @Test
    void measuresBetweenTheFirstAndLastCpuThisProcessMayUse()
    {
        final BitSet allowed = Affinity.getAffinity();
        assumeTrue(allowed.cardinality() >= 2, "needs two CPUs");
        final CoreToCoreProbe probe = CoreToCoreProbe.forThisProcess();
        assertArrayEquals(new int[] {allowed.nextSetBit(0), allowed.length() - 1}, probe.cpus());
    }

    @Test
    void aCacheLineGoesBetweenTwoCpusInNanosecondsNotMicroseconds()
    {
        final CoreToCoreProbe probe = CoreToCoreProbe.forThisProcess();
        assumeTrue(probe != null, "needs two CPUs");
        // another test's thread may still be busy on a CPU: the best of three readings
        final long best = Arrays.stream(new long[] {probe.measure(), probe.measure(), probe.measure()})
            .filter(ns -> ns != CoreToCoreProbe.NOT_MEASURED).min().orElse(CoreToCoreProbe.NOT_MEASURED);
        assertNotEquals(CoreToCoreProbe.NOT_MEASURED, best, "no reading of three");
        assertTrue(best >= 1 && best < CoreToCoreProbe.DISTURBED_NANOS, best + " ns");
        // the calling thread is not left pinned by the probe's threads
        assertTrue(Affinity.getAffinity().cardinality() >= 2);
    }

    @Test
    void theManifestEntryHasTheCpusAndNullWhereNothingWasMeasured()
    {
        final Map<String, Object> entry = CoreToCoreProbe.between(0, 3).manifestEntry(64, CoreToCoreProbe.NOT_MEASURED);
        assertEquals(List.of(0, 3), entry.get("cpus"));
        assertEquals(64L, entry.get("before_ns"));
        assertTrue(entry.containsKey("after_ns"));
        assertEquals(null, entry.get("after_ns"));
        assertEquals("{\n  \"cpus\": [0, 3],\n  \"before_ns\": 64,\n  \"after_ns\": null\n}\n", Json.write(entry));
    }
}
