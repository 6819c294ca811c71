package org.fixlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * A product is one adapter listed once: no other source of the runner, the build or the portal
 * names a product's id, so adding one never means editing a switch somewhere else.
 */
class ProductRegistryTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void onlyTheAdapterNamesItsProduct() throws IOException
    {
        final List<String> offences = new ArrayList<>();
        for (final Product product : Products.ALL)
        {
            final Path adapter = adapterSource(product);
            assertTrue(Files.readString(adapter).contains("\"" + product.id() + "\""), adapter + " names " + product.id());
            for (final Path file : sources())
            {
                if (file.equals(adapter))
                {
                    continue;
                }
                final String text = Files.readString(file);
                if (names(text, product.id()) && !(product == Products.ALL.get(0) && isPortalOrPipeline(file)))
                {
                    offences.add(ROOT.relativize(file) + " names " + product.id());
                }
            }
        }
        assertEquals(List.of(), offences, "products are named in their adapter only (read them from Products.ALL or the data)");
    }

    @Test
    void idsAreUniqueAndEveryProductHasConfigurationsForWhatItPlays()
    {
        assertEquals(Products.ALL.size(), new HashSet<>(Products.ALL.stream().map(Product::id).toList()).size());
        for (final Product product : Products.ALL)
        {
            assertTrue(product.id().matches("[a-z0-9-]+"), product.id());
            assertTrue(product.configurations().contains(product.defaultConfiguration()), product.id());
            // a campaign may leave a scenario out on a machine where the product cannot be measured in it (the plan
            // says so, see PlanTest), but the round trip, the seeds' headline, is measured for every product everywhere
            for (final boolean full : new boolean[] {true, false})
            {
                assertTrue(!product.configurations(Scenario.RTT_ECHO, full).isEmpty(), product.id() + " rtt-echo");
            }
            for (final Scenario scenario : Scenario.values())
            {
                for (final boolean full : new boolean[] {true, false})
                {
                    final List<String> configs = product.configurations(scenario, full);
                    assertTrue(product.configurations().containsAll(configs), product.id() + " " + scenario.id());
                }
            }
        }
    }

    /**
     * The project's own engine is the subject of the portal and of the releases: those may say "fixlab", and so
     * may the script that builds its released versions from their commits (bin/engine-versions).
     */
    private static boolean isPortalOrPipeline(final Path file)
    {
        return file.startsWith(ROOT.resolve("pipelines")) || file.equals(ROOT.resolve("bench-runner/bin/engine-versions"));
    }

    private static boolean names(final String text, final String id)
    {
        return text.contains("\"" + id + "\"") || text.contains("'" + id + "'");
    }

    private static Path adapterSource(final Product product)
    {
        final String name = product.getClass().getName().replace('.', '/') + ".java";
        return ROOT.resolve("bench-runner/src/main/java").resolve(name);
    }

    private static List<Path> sources() throws IOException
    {
        final List<Path> files = new ArrayList<>();
        for (final String dir : List.of("bench-runner/src/main", "bench-runner/bin", "mk", "pipelines/src"))
        {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(dir)))
            {
                walk.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".pyc")).forEach(files::add);
            }
        }
        files.add(ROOT.resolve("Makefile"));
        return files;
    }
}
