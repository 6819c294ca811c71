package org.fixlab.bench.campaign;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.fixlab.bench.BenchException;

/**
 * One version of the engine under test in a campaign that measures several side by side
 * (`make bench VERSIONS="0.1.0 HEAD"`): its label, the commit its engine jar was built from, that jar, and the
 * folder of engine.properties files of that commit. bin/engine-versions builds and describes them; this
 * harness drives every version, and only the engine jar and its configurations change between them.
 */
record EngineVersion(String label, String commit, Path jar, Path etc)
{
    /** Environment of a run's processes: bin/fixlab-bench puts the jar on the classpath, the adapter records the rest. */
    Map<String, String> environment()
    {
        return Map.of("FIXLAB_ENGINE_JAR", jar.toString(), "FIXLAB_ENGINE_VERSION", label, "FIXLAB_ENGINE_COMMIT", commit);
    }

    /** The engine.properties of a configuration as it was at this version's commit, or null if it did not exist. */
    Path properties(final String configuration)
    {
        final Path file = etc.resolve(configuration).resolve("engine.properties");
        return Files.isRegularFile(file) ? file : null;
    }

    /** Parses bin/engine-versions' output: entries "label|commit|jar|etc" joined by ";". */
    static List<EngineVersion> parse(final String spec)
    {
        final List<EngineVersion> versions = new ArrayList<>();
        for (final String entry : spec.split(";"))
        {
            if (entry.isBlank())
            {
                continue;
            }
            final String[] f = entry.split("\\|");
            if (f.length != 4)
            {
                throw new BenchException("--versions: expected label|commit|jar|etc, got '" + entry + "'");
            }
            final EngineVersion version = new EngineVersion(f[0], f[1], Path.of(f[2]), Path.of(f[3]));
            if (!Files.isRegularFile(version.jar()))
            {
                throw new BenchException("--versions: engine jar " + version.jar() + " of " + version.label() + " not found");
            }
            if (versions.stream().anyMatch(v -> v.label().equals(version.label())))
            {
                throw new BenchException("--versions: two versions are labelled " + version.label());
            }
            versions.add(version);
        }
        return versions;
    }
}
