package org.fixlab.bench.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fixlab.bench.BenchException;

/**
 * Switches the kernel's running DAMON monitors off for a campaign and back on after it ({@code make bench PAUSE_DAMON=1},
 * as root), for hosts where their time slices decide whether a paced run can be compared at all.
 *
 * <p>Why: a paced run is compared only when its client and server threads kept their CPUs for all but 0.5% of its
 * window. On the 2-vCPU Intel VM of 2026-12-02, whose monitor pages out memory idle for 60 s, the threads were off
 * their CPUs for 0.53-3.29% of each paced window with it running, so no paced fixlab run of two campaigns passed (0 of 5,
 * 0 of 20; the raw socket's 0 of 5 and 4 of 20). With it off for the campaign, fixlab's and the raw socket's passed
 * 5 and 7 of 10, 13 and 13 of 20, and 4 and 3 of 5 (campaigns i12-s41-issue, -rtt20, -nodamon, -nodamon20,
 * -issue-nodamon). On the AMD VM of 2026-12-01 it was not enough: the machine's own agent took more than the bound by
 * itself. Each run's manifest says whether a monitor ran
 * ({@code hardware.hosts[].memory}): the runs of a paused campaign name none.
 *
 * <p>The monitors are switched back on when the campaign ends, fails or is interrupted (a shutdown hook); one that
 * cannot be is named on standard error with the command that restarts it.
 */
public final class DamonPause implements AutoCloseable
{
    /** Writes a monitor's state file: sysfs on the host, where root may write it; tests give one that fails. */
    interface StateWriter
    {
        void write(Path state, String value) throws IOException;
    }

    private static final StateWriter SYSFS = (state, value) -> Files.writeString(state, value, StandardCharsets.US_ASCII);

    private final List<Path> paused;
    private final StateWriter writer;
    private final Thread restoreOnExit = new Thread(this::resume, "switch DAMON back on");
    private boolean resumed;

    private DamonPause(final List<Path> paused, final StateWriter writer)
    {
        this.paused = paused;
        this.writer = writer;
    }

    /** Switches the real host's running monitors off. */
    public static DamonPause pause()
    {
        return pause(MemoryBacking.DAMON_KDAMONDS, SYSFS);
    }

    /**
     * Switches every monitor under {@code kdamonds} whose state is "on" off, or none: where one cannot be (not root, a
     * kernel that refuses), those already switched off go back on and the campaign is refused before its first run.
     */
    static DamonPause pause(final Path kdamonds, final StateWriter writer)
    {
        final List<Path> paused = new ArrayList<>();
        for (final Path kdamond : MemoryBacking.runningMonitors(kdamonds))
        {
            final Path state = kdamond.resolve("state");
            try
            {
                writer.write(state, "off");
            }
            catch (final IOException ex)
            {
                new DamonPause(paused, writer).resume();
                throw new BenchException("cannot switch DAMON off for the campaign (" + state + ": " + ex.getMessage()
                    + "): run it as root, or without PAUSE_DAMON", ex);
            }
            paused.add(kdamond);
        }
        final DamonPause pause = new DamonPause(paused, writer);
        if (!paused.isEmpty())
        {
            Runtime.getRuntime().addShutdownHook(pause.restoreOnExit);
        }
        return pause;
    }

    /** The monitors this pause switched off, by number ("0", ...). */
    public List<String> paused()
    {
        return paused.stream().map(p -> p.getFileName().toString()).toList();
    }

    /** Switches the paused monitors back on, once. */
    @Override
    public void close()
    {
        resume();
        try
        {
            Runtime.getRuntime().removeShutdownHook(restoreOnExit);
        }
        catch (final IllegalStateException | IllegalArgumentException ex)
        {
            // the JVM is already shutting down (the hook is running or ran), or no hook was added
        }
    }

    private synchronized void resume()
    {
        if (resumed)
        {
            return;
        }
        resumed = true;
        for (final Path kdamond : paused)
        {
            final Path state = kdamond.resolve("state");
            try
            {
                writer.write(state, "on");
            }
            catch (final IOException ex)
            {
                System.err.println("DAMON monitor " + kdamond.getFileName() + " stayed off (" + ex.getMessage()
                    + "); switch it back on with: echo on > " + state);
            }
        }
    }
}
