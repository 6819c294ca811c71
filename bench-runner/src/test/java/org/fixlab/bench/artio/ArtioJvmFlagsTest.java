package org.fixlab.bench.artio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Artio's JVM gets its build's flags once each, after the options the campaign's JVM passes on. */
class ArtioJvmFlagsTest
{
    private static final String[] ARTIO_BUILD = ("--add-opens java.base/jdk.internal.misc=ALL-UNNAMED "
        + "--add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.util.zip=ALL-UNNAMED").split(" ");

    @Test
    void aFlagTheJvmAlreadyRunsWithIsNotAddedAgain()
    {
        final List<String> inherited = List.of("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "-Xms1g", "-Xmx1g");

        assertEquals(List.of("--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.zip=ALL-UNNAMED"), ArtioProduct.flagsNotIn(inherited, ARTIO_BUILD));
    }

    @Test
    void flagsTheJvmDoesNotHaveAreAllAddedAndOneWordFlagsAreComparedWhole()
    {
        assertEquals(List.of(ARTIO_BUILD), ArtioProduct.flagsNotIn(List.of("-Xmx1g"), ARTIO_BUILD));
        assertEquals(List.of("-XX:+UseParallelGC"),
            ArtioProduct.flagsNotIn(List.of("-Xmx1g"), new String[] {"-Xmx1g", "-XX:+UseParallelGC"}));
    }
}
