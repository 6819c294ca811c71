package org.fixlab.bench.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Whether this host gives freed memory back to a hypervisor, the manifest's {@code hardware.hosts[].memory}.
 *
 * <p>A virtual machine whose memory balloon has free page reporting (virtio-balloon feature 5) hands the host every
 * block of memory that stays free for a few seconds, and the host takes it back; the next write to such a page waits
 * for the host to fault it in again. A run that writes files (a store, a message log) writes new page-cache pages all
 * along, so on such a machine it pays that fault for each: on the 2-core VM the project measures on, writing 4 GiB
 * again at once cost 1.5-1.7 us a page and 10 s after freeing it 4.0-5.7 us, and fixlab balanced streamed 0.67-0.78M
 * orders a second with reporting on against 2.04-2.16M with the balloon's driver unbound and the memory written once
 * (optimized, which writes no files, 3.4-4.5M and 4.2-4.8M). The figure of a configuration that persists is the
 * machine's as much as the engine's, so the reader is told.
 *
 * <p>What frees that memory in the first place is told too: a kernel memory monitor (DAMON) with a {@code pageout}
 * scheme takes page-cache pages nobody touched for a while out of memory, which reporting then hands to the host. The
 * VM the project measures on pages out memory idle for 60 s, up to 128 MiB a second, so the files of one run are
 * gone from memory within minutes and the next run's writes fault new pages in; another VM may keep them for good.
 */
public final class MemoryBacking
{
    public static final Path VIRTIO_BALLOON_DRIVER = Path.of("/sys/bus/virtio/drivers/virtio_balloon");
    /** DAMON's sysfs interface: a folder per monitoring thread (kdamond), each with its contexts and their schemes. */
    public static final Path DAMON_KDAMONDS = Path.of("/sys/kernel/mm/damon/admin/kdamonds");
    /** VIRTIO_BALLOON_F_REPORTING: the position of its bit in a virtio device's sysfs {@code features} string. */
    static final int FREE_PAGE_REPORTING = 5;

    public static final String REPORTING = "virtio-balloon with free page reporting: memory freed for a few seconds goes back "
        + "to the host, and writing it again waits for the host";
    public static final String BALLOON = "virtio-balloon without free page reporting";
    public static final String NO_BALLOON = "no memory balloon";

    private MemoryBacking()
    {
    }

    /** The manifest's entry for this host. */
    public static String describeThisHost()
    {
        final String damon = damonSchemes(DAMON_KDAMONDS);
        final String balloon = describe(VIRTIO_BALLOON_DRIVER);
        return damon.isEmpty() ? balloon : balloon + "; " + damon;
    }

    /** What the devices bound to the virtio-balloon driver under {@code driver} say. */
    public static String describe(final Path driver)
    {
        if (!Files.isDirectory(driver))
        {
            return NO_BALLOON;
        }
        try (Stream<Path> entries = Files.list(driver))
        {
            final var devices = entries.filter(p -> p.getFileName().toString().startsWith("virtio")).toList();
            if (devices.isEmpty())
            {
                return NO_BALLOON;
            }
            for (final Path device : devices)
            {
                final String features = Files.readString(device.resolve("features"), StandardCharsets.US_ASCII).strip();
                if (features.length() > FREE_PAGE_REPORTING && features.charAt(FREE_PAGE_REPORTING) == '1')
                {
                    return REPORTING;
                }
            }
            return BALLOON;
        }
        catch (final IOException ex)
        {
            return "unknown (" + driver + ": " + ex.getMessage() + ")";
        }
    }

    /**
     * The schemes of the running DAMON monitors under {@code kdamonds} that act on memory, as
     * "DAMON pageout of memory idle for 60 s or more, up to 128 MiB a second", joined by "; "; empty where none runs
     * (no DAMON, none switched on, or only {@code stat} schemes, which count and change nothing). A scheme whose
     * files cannot be read is said to be there, unread, rather than left out.
     */
    public static String damonSchemes(final Path kdamonds)
    {
        final List<String> schemes = new ArrayList<>();
        for (final Path kdamond : runningMonitors(kdamonds))
        {
            for (final Path context : numbered(kdamond.resolve("contexts")))
            {
                for (final Path scheme : numbered(context.resolve("schemes")))
                {
                    final String action = read(scheme.resolve("action"));
                    if (!"stat".equals(action))
                    {
                        schemes.add(describeScheme(context, scheme, action));
                    }
                }
            }
        }
        return String.join("; ", schemes);
    }

    /** The DAMON monitors (kdamond folders) under {@code kdamonds} whose state is "on", in order. */
    static List<Path> runningMonitors(final Path kdamonds)
    {
        return numbered(kdamonds).stream().filter(kdamond -> "on".equals(read(kdamond.resolve("state")))).toList();
    }

    private static String describeScheme(final Path context, final Path scheme, final String action)
    {
        try
        {
            // a region's age counts aggregation intervals in which its access count stayed within the pattern's
            final long aggregationMicros = Long.parseLong(read(context.resolve("monitoring_attrs/intervals/aggr_us")));
            final long minAge = Long.parseLong(read(scheme.resolve("access_pattern/age/min")));
            final long quotaBytes = Long.parseLong(read(scheme.resolve("quotas/bytes")));
            final long quotaMillis = Long.parseLong(read(scheme.resolve("quotas/reset_interval_ms")));
            final StringBuilder text = new StringBuilder("DAMON ").append(action).append(" of memory idle for ")
                .append(decimal(minAge * aggregationMicros / 1e6)).append(" s or more");
            if (quotaBytes > 0 && quotaMillis > 0)
            {
                text.append(", up to ").append(decimal(quotaBytes / (double)(1 << 20) * 1000 / quotaMillis))
                    .append(" MiB a second");
            }
            return text.toString();
        }
        catch (final NumberFormatException ex)
        {
            return "DAMON " + action + " (" + scheme + ": unreadable)";
        }
    }

    private static String decimal(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : String.format(Locale.ROOT, "%.1f", value);
    }

    /** The numbered subfolders of {@code dir} ("0", "1", ...) in order; none where it cannot be listed. */
    private static List<Path> numbered(final Path dir)
    {
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                .sorted((a, b) -> Integer.compare(Integer.parseInt(a.getFileName().toString()),
                    Integer.parseInt(b.getFileName().toString())))
                .toList();
        }
        catch (final IOException ex)
        {
            return List.of();
        }
    }

    /** A sysfs attribute's value, stripped; empty where it cannot be read. */
    private static String read(final Path attribute)
    {
        try
        {
            return Files.readString(attribute, StandardCharsets.US_ASCII).strip();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    public static boolean reportsFreePages()
    {
        return REPORTING.equals(describe(VIRTIO_BALLOON_DRIVER));
    }
}
