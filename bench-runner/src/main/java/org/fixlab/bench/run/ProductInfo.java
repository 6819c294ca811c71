package org.fixlab.bench.run;

import java.io.InputStream;
import java.util.Properties;

/** Versions and commits of the products measured, read from the jars and the checkout, not typed in. */
public final class ProductInfo
{
    private ProductInfo()
    {
    }

    /** The version of a Maven artifact, from the pom.properties inside the jar that holds {@code inJar}. */
    public static String mavenVersion(final String group, final String artifact, final Class<?> inJar)
    {
        final String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = inJar.getResourceAsStream(resource))
        {
            if (in != null)
            {
                final Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            }
        }
        catch (final java.io.IOException ex)
        {
            // fall through to the package version
        }
        final String v = inJar.getPackage().getImplementationVersion();
        return v != null ? v : "unknown";
    }

    /**
     * The commit the jars were built from (written beside them by {@code make build-java}), else the
     * checkout's commit now; "-dirty" when engine or runner sources had uncommitted changes; "unknown"
     * outside a git checkout.
     */
    public static String gitCommit()
    {
        final String built = buildCommit();
        if (built != null)
        {
            return built;
        }
        final String commit = HardwareProbe.run("git", "rev-parse", "--short=7", "HEAD").strip();
        if (commit.isEmpty() || commit.contains(" ") || commit.contains("fatal"))
        {
            return "unknown";
        }
        final String status = HardwareProbe.run("git", "status", "--porcelain", "--untracked-files=no", "--", "engine", "bench-runner").strip();
        return status.isEmpty() ? commit : commit + "-dirty";
    }

    private static String buildCommit()
    {
        try
        {
            final java.nio.file.Path jar = java.nio.file.Path.of(ProductInfo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            final java.nio.file.Path file = jar.resolveSibling("build-commit.txt");
            if (java.nio.file.Files.isRegularFile(jar) && java.nio.file.Files.isRegularFile(file))
            {
                final String commit = java.nio.file.Files.readString(file).strip();
                return commit.isEmpty() ? null : commit;
            }
        }
        catch (final java.io.IOException | java.net.URISyntaxException | SecurityException ex)
        {
            // no build record: fall back to asking git
        }
        return null;
    }
}
