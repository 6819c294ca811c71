package org.fixlab.bench.campaign;

import java.util.ArrayList;
import java.util.List;

/** The bin/ script every run goes through, as a user would start it (relative to the repository root). */
final class Script
{
    static final String PATH = "bench-runner/bin/fixlab-bench";

    private Script()
    {
    }

    static List<String> command(final String role, final List<String> common, final List<String> extra)
    {
        final List<String> command = new ArrayList<>();
        command.add(PATH);
        command.add(role);
        command.addAll(common);
        command.addAll(extra);
        return command;
    }
}
