package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fixlab.bench.BenchException;
import org.junit.jupiter.api.Test;

/** A yes-or-no argument as make passes it: PAUSE_DAMON=1, PAUSE_DAMON=yes, or unset. */
class CampaignArgumentsTest
{
    @Test
    void aFlagTakesTheUsualSpellingsAndUnsetIsNo()
    {
        for (final String yes : new String[] {"true", "yes", "1"})
        {
            assertTrue(Campaign.yes("--pause-damon", yes), yes);
        }
        for (final String no : new String[] {"false", "no", "0", ""})
        {
            assertFalse(Campaign.yes("--pause-damon", no), no);
        }
    }

    @Test
    void anythingElseIsRefusedWithWhatItTakes()
    {
        final BenchException refused = assertThrows(BenchException.class, () -> Campaign.yes("--pause-damon", "on"));
        assertEquals("argument --pause-damon takes true or false, not 'on'", refused.getMessage());
    }
}
