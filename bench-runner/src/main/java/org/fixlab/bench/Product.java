package org.fixlab.bench;

import java.util.List;
import java.util.Map;

/**
 * One product measured side by side: everything the runner, the campaign plan and the pages need
 * to know about it lives in its adapter, and the adapter is listed once, in {@link Products}.
 * Adding a product is one new adapter (and its peers) and one line there.
 */
public interface Product
{
    /** The id of the command line, the run ids and the data (lower case letters, digits and dashes). */
    String id();

    /** The name the pages print, the same on every hardware (a product name, never a machine). */
    String label();

    /**
     * What it is on the pages: "subject" (the engine this repository releases), "peer" (another FIX
     * engine) or "baseline" (the floor every engine sits on, figures are also given as ratios to it).
     */
    default String role()
    {
        return "peer";
    }

    /** The engine this repository releases: the one product a campaign may measure in several versions. */
    default boolean isSubject()
    {
        return "subject".equals(role());
    }

    /**
     * Whether it keeps up with the seeds' paced rate (50,000 msg/s) on a small machine. A campaign leaves out
     * paced runs of a product that does not (they could never pass the steady-state check, and a median that
     * only measures how long a queue grew is not a latency), and the quick profile warms its other runs up
     * twice as long.
     */
    default boolean sustainsSeedRate()
    {
        return true;
    }

    /** Every configuration it can run in; the first is the plain one, the second (if any) the tuned one. */
    List<String> configurations();

    /** The configuration a single run uses when none is given. */
    default String defaultConfiguration()
    {
        return configurations().get(configurations().size() > 1 ? 1 : 0);
    }

    /** The configurations a campaign runs for a scenario (full profile), and the fewer of the quick profile. */
    default List<String> configurations(final Scenario scenario, final boolean full)
    {
        return configurations();
    }

    /** Whether its API lets the runner take this scenario's timestamps honestly. */
    default boolean plays(final Scenario scenario)
    {
        return true;
    }

    /** Whether --properties (an engine.properties file) configures it instead of a named configuration. */
    default boolean takesPropertiesFile()
    {
        return false;
    }

    /**
     * The java command (without main class) of the JVM its roles must run in when it cannot share the
     * runner's classpath; empty when it runs in this one.
     */
    default List<String> ownJvm()
    {
        return List.of();
    }

    /** The manifest's product block: name, version and commit, read from the jars, plus the label. */
    Map<String, Object> info();

    /** This product in the configuration the options name (checked: the name is one of {@link #configurations()}). */
    ProductConfig configure(Options options);

    static Product of(final String id)
    {
        return Products.of(id);
    }
}
