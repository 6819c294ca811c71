package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HarnessLiteralsTest
{
    @Test
    void holdsTheLiteralsOfTheRunnersClassesAndNoneOfTheEngines()
    {
        HarnessLiterals.internAll();
        // ServerRecorder's keys, only used when a run ends, and a text of BenchServer's that only a failing run prints
        assertTrue(HarnessLiterals.holds("elapsed_ns"));
        assertTrue(HarnessLiterals.holds("the client went away after \u0001 of \u0001 orders"));
        // the engine's: its own FirstCompileResolution interns them, in the engine's jar of whichever version runs
        assertFalse(HarnessLiterals.holds("Logon with unknown CompIDs"));
    }
}
