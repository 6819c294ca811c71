package org.fixlab.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fixlab.bench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DAMON's sysfs folder as tests lay it out: kdamonds/N/state, "on" or "off". */
class DamonPauseTest
{
    /** Writes state files as sysfs takes them, and records each write. */
    private final List<String> writes = new ArrayList<>();
    private final DamonPause.StateWriter recording = (state, value) ->
    {
        writes.add(state.getParent().getFileName() + "=" + value);
        Files.writeString(state, value, StandardCharsets.US_ASCII);
    };

    @Test
    void runningMonitorsAreSwitchedOffForTheCampaignAndBackOnAfterIt(@TempDir final Path kdamonds) throws Exception
    {
        kdamond(kdamonds, "0", "on");
        kdamond(kdamonds, "1", "off");
        kdamond(kdamonds, "2", "on");
        try (DamonPause pause = DamonPause.pause(kdamonds, recording))
        {
            assertEquals(List.of("0", "2"), pause.paused());
            assertEquals(List.of("off", "off", "off"), states(kdamonds));
            assertEquals("", MemoryBacking.damonSchemes(kdamonds), "the runs' manifests name no running monitor");
        }
        assertEquals(List.of("on", "off", "on"), states(kdamonds), "a monitor the campaign found off stays off");
        assertEquals(List.of("0=off", "2=off", "0=on", "2=on"), writes);
    }

    @Test
    void theMonitorsGoBackOnOnceHoweverOftenTheCampaignCloses(@TempDir final Path kdamonds) throws Exception
    {
        kdamond(kdamonds, "0", "on");
        final DamonPause pause = DamonPause.pause(kdamonds, recording);
        pause.close();
        pause.close();
        assertEquals(List.of("0=off", "0=on"), writes);
    }

    @Test
    void aMonitorThatCannotBeSwitchedOffRefusesTheCampaignAndPutsTheOthersBack(@TempDir final Path kdamonds) throws Exception
    {
        kdamond(kdamonds, "0", "on");
        kdamond(kdamonds, "1", "on");
        final DamonPause.StateWriter notRoot = (state, value) ->
        {
            if (state.getParent().getFileName().toString().equals("1"))
            {
                throw new AccessDeniedException(state.toString());
            }
            recording.write(state, value);
        };
        final BenchException refused = assertThrows(BenchException.class, () -> DamonPause.pause(kdamonds, notRoot));
        assertTrue(refused.getMessage().contains(kdamonds.resolve("1/state").toString()), refused.getMessage());
        assertTrue(refused.getMessage().contains("as root, or without PAUSE_DAMON"), refused.getMessage());
        assertEquals(List.of("on", "on"), states(kdamonds));
        assertEquals(List.of("0=off", "0=on"), writes);
    }

    @Test
    void aHostWithoutDamonHasNothingToPause(@TempDir final Path root)
    {
        try (DamonPause pause = DamonPause.pause(root.resolve("kdamonds"), recording))
        {
            assertEquals(List.of(), pause.paused());
        }
        assertEquals(List.of(), writes);
    }

    private static void kdamond(final Path kdamonds, final String number, final String state) throws IOException
    {
        Files.writeString(Files.createDirectories(kdamonds.resolve(number)).resolve("state"), state);
    }

    /** The states of monitors 0, 1, ... as many as the test laid out. */
    private static List<String> states(final Path kdamonds) throws IOException
    {
        final List<String> states = new ArrayList<>();
        for (int n = 0; Files.isDirectory(kdamonds.resolve(Integer.toString(n))); n++)
        {
            states.add(Files.readString(kdamonds.resolve(n + "/state")).strip());
        }
        return states;
    }
}
