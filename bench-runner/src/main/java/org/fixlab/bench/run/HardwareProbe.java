package org.fixlab.bench.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The hardware and software of this host, read from the system (never typed in): /proc/cpuinfo,
 * /proc/meminfo, the kernel release, /etc/os-release, the NIC of the route to the peer, whether freed memory
 * goes back to a hypervisor ({@link MemoryBacking}) and the running JVM. Anything unreadable is reported as
 * "unknown (...)" rather than guessed.
 */
public final class HardwareProbe
{
    private HardwareProbe()
    {
    }

    /** What {@link #nic} says of a peer on this host. */
    private static final String LOOPBACK = "lo (loopback)";

    /** Whether a host's entry, from {@link #probe}, reaches its peer over loopback: client and server share the host. */
    public static boolean peerOnThisHost(final Map<String, Object> host)
    {
        return LOOPBACK.equals(host.get("nic"));
    }

    public static Map<String, Object> probe(final String role, final String peerAddress)
    {
        final Map<String, Object> host = new LinkedHashMap<>();
        host.put("role", role);
        host.put("hostname", firstNonEmpty(read("/proc/sys/kernel/hostname").strip(), hostnameFromJava()));
        final List<String> cpuinfo = read("/proc/cpuinfo").lines().toList();
        String model = null;
        final Set<String> sockets = new HashSet<>();
        final Set<String> cores = new HashSet<>();
        int threads = 0;
        String physical = "0";
        for (final String line : cpuinfo)
        {
            final int colon = line.indexOf(':');
            if (colon < 0)
            {
                continue;
            }
            final String key = line.substring(0, colon).strip();
            final String value = line.substring(colon + 1).strip();
            switch (key)
            {
                case "processor" -> threads++;
                case "model name", "Model", "Hardware" -> model = model == null ? value : model;
                case "physical id" -> {
                    physical = value;
                    sockets.add(value);
                }
                case "core id" -> cores.add(physical + "/" + value);
                default -> { }
            }
        }
        threads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        host.put("cpu_model", model == null ? "unknown (no model name in /proc/cpuinfo)" : model);
        host.put("sockets", Math.max(1, sockets.size()));
        host.put("cores", cores.isEmpty() ? threads : cores.size());
        host.put("threads", threads);
        host.put("ram_bytes", memTotalBytes());
        host.put("kernel", firstNonEmpty(read("/proc/sys/kernel/osrelease").strip(), System.getProperty("os.version")));
        host.put("os", osName());
        host.put("nic", nic(peerAddress));
        host.put("memory", MemoryBacking.describeThisHost());
        host.put("jdk_vendor", System.getProperty("java.vendor"));
        host.put("jdk_version", System.getProperty("java.version"));
        host.put("jvm_name", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        host.put("jvm_args", ManagementFactory.getRuntimeMXBean().getInputArguments());
        host.put("available_processors", Runtime.getRuntime().availableProcessors());
        return host;
    }

    private static long memTotalBytes()
    {
        for (final String line : read("/proc/meminfo").lines().toList())
        {
            if (line.startsWith("MemTotal:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024L;
            }
        }
        return Math.max(1, Runtime.getRuntime().maxMemory());
    }

    private static String osName()
    {
        for (final String line : read("/etc/os-release").lines().toList())
        {
            if (line.startsWith("PRETTY_NAME="))
            {
                return line.substring("PRETTY_NAME=".length()).replace("\"", "");
            }
        }
        return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /** The interface the kernel routes to the peer through, with what sysfs says about its device. */
    static String nic(final String peerAddress)
    {
        final String route = run("ip", "route", "get", peerAddress);
        final String[] words = route.split("\\s+");
        String dev = null;
        for (int i = 0; i + 1 < words.length; i++)
        {
            if (words[i].equals("dev"))
            {
                dev = words[i + 1];
                break;
            }
        }
        if (dev == null)
        {
            return "unknown (ip route get " + peerAddress + " gave no device)";
        }
        if (dev.equals("lo"))
        {
            return LOOPBACK;
        }
        final Path device = Path.of("/sys/class/net", dev, "device");
        final StringBuilder sb = new StringBuilder(dev).append(" (");
        if (Files.exists(device))
        {
            final String driver = linkName(device.resolve("driver"));
            sb.append("driver ").append(driver).append(", vendor ").append(read(device.resolve("vendor").toString()).strip())
                .append(" device ").append(read(device.resolve("device").toString()).strip());
        }
        else
        {
            sb.append("virtual, ").append(firstNonEmpty(linkName(Path.of("/sys/class/net", dev, "device", "driver")),
                kind(dev)));
        }
        final String speed = read("/sys/class/net/" + dev + "/speed").strip();
        if (!speed.isEmpty() && !speed.startsWith("-"))
        {
            sb.append(", ").append(speed).append(" Mb/s");
        }
        return sb.append(')').toString();
    }

    private static String kind(final String dev)
    {
        final String details = run("ip", "-d", "link", "show", dev);
        final String[] lines = details.split("\n");
        return lines.length > 2 ? lines[2].strip().split("\\s+")[0] : "no device";
    }

    private static String linkName(final Path link)
    {
        try
        {
            return Files.readSymbolicLink(link).getFileName().toString();
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return "";
        }
    }

    private static String hostnameFromJava()
    {
        try
        {
            return java.net.InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static String firstNonEmpty(final String a, final String b)
    {
        return a != null && !a.isBlank() ? a : (b == null || b.isBlank() ? "unknown" : b);
    }

    static String read(final String file)
    {
        try
        {
            return Files.readString(Path.of(file), StandardCharsets.ISO_8859_1);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    static String run(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(5, TimeUnit.SECONDS);
            return out;
        }
        catch (final IOException ex)
        {
            return "";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
