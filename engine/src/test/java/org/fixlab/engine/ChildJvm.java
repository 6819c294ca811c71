package org.fixlab.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line for a child JVM of a test (a process the test kills, or limits): this JVM's java, run
 * the way the engine is deployed, with the pom's engine.jvm.flags (the package the mapped store opens), which
 * surefire passes as the system property {@value #FLAGS_PROPERTY}.
 */
public final class ChildJvm
{
    static final String FLAGS_PROPERTY = "fixlab.engine.jvm.flags";

    private ChildJvm()
    {
    }

    /** The java executable, the engine's JVM flags, then {@code options}. */
    public static List<String> command(final String... options)
    {
        final List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(engineFlags());
        command.addAll(List.of(options));
        return command;
    }

    public static String executable()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public static List<String> engineFlags()
    {
        final String flags = System.getProperty(FLAGS_PROPERTY, "").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }
}
