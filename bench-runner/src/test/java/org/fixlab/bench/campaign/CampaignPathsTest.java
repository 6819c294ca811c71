package org.fixlab.bench.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** What a run records of the campaign's files must work in any clone: paths inside the checkout are relative. */
class CampaignPathsTest
{
    @Test
    void aFileOfTheCheckoutIsRecordedRelativeToIt()
    {
        final Path inside = Path.of("").toAbsolutePath().resolve("etc/balanced/engine.properties");
        assertEquals(Path.of("etc/balanced/engine.properties"), Campaign.fromCheckout(inside));
        assertEquals(Path.of(".cache/engines/9e05406/etc/optimized/engine.properties"),
            Campaign.fromCheckout(Path.of(".cache/engines/9e05406/etc/optimized/engine.properties")));
    }

    @Test
    void aFileElsewhereKeepsItsPath()
    {
        final Path outside = Path.of("/nonexistent-elsewhere/engine.properties");
        assertEquals(outside, Campaign.fromCheckout(outside));
    }
}
