package org.fixlab.bench.campaign;

import static org.agrona.UnsafeAccess.UNSAFE;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Writes once to the machine's free memory before the first campaign after each boot, then gives it back.
 *
 * <p>Why: a virtual machine's host often backs guest memory only when the guest first writes to it. Until every page
 * has been written once, a run that writes new pages (a file or mapped store, a message log: each balanced throughput
 * run writes a few GB of page cache) pays the host's fault on each of them. Deleting the files does not end it: the
 * kernel hands out pages never written before while it has them. On the 2-core VM the project measures on, a fresh
 * boot wrote a 1 GiB file at 1.6 GB/s, then at 3.5-4.2 GB/s; the three fixlab balanced throughput runs of a campaign,
 * each after the one before had deleted its files, all ran at 0.83-0.90M msg/s, and at 0.94-1.64M (median 1.28M)
 * once the free memory had been written, the kernel's copy into the page cache falling from a fifth of each engine
 * thread's samples to a tenth. Without this step a campaign's figures
 * would depend on how long the machine had been up, and the configurations that persist would pay for it most.
 *
 * <p>On a machine whose memory is already backed this costs a few seconds of zeroing, once per boot.
 */
final class MemoryPretouch
{
    /** Pages written per allocation: small enough that a refused allocation costs little, large enough to be few. */
    static final long CHUNK_BYTES = 256L << 20;
    private static final int PAGE_BYTES = 4096;

    private MemoryPretouch()
    {
    }

    /**
     * Writes the free memory once unless a marker in {@code markerDirectory} says it was done since this boot.
     * Leaves room for the rest of the machine: an eighth of its memory, at least 1 GiB, is never touched.
     */
    static void oncePerBoot(final Path markerDirectory, final Consumer<String> report)
    {
        oncePerBoot(markerDirectory, read(Path.of("/proc/sys/kernel/random/boot_id")).strip(), read(Path.of("/proc/meminfo")),
            report);
    }

    /** {@link #oncePerBoot(Path, Consumer)} with this boot's id and the text of /proc/meminfo given. */
    static void oncePerBoot(final Path markerDirectory, final String bootId, final String meminfo, final Consumer<String> report)
    {
        if (bootId.isEmpty() || meminfo.isEmpty())
        {
            report.accept("memory: not written first (no /proc/sys/kernel/random/boot_id or /proc/meminfo here)");
            return;
        }
        final Path marker = markerDirectory.resolve("fixlab-bench-memory-written-" + bootId);
        if (Files.exists(marker))
        {
            return;
        }
        final long total = meminfoBytes(meminfo, "MemTotal");
        final long bytes = Math.max(0, meminfoBytes(meminfo, "MemFree") - Math.max(1L << 30, total / 8));
        report.accept(String.format("memory: writing %.1f GiB of free memory once since boot, so that no run pays the host's "
            + "first touch of its pages (make bench TOUCH_MEMORY=no skips it)", bytes / (double)(1L << 30)));
        final long start = System.nanoTime();
        final long written = touch(bytes);
        report.accept(String.format("memory: %.1f GiB written in %.0f s", written / (double)(1L << 30), (System.nanoTime() - start) / 1e9));
        try
        {
            Files.writeString(marker, written + " bytes\n");
        }
        catch (final IOException ex)
        {
            report.accept("memory: cannot write the marker " + marker + " (" + ex.getMessage() + "); the next campaign writes again");
        }
    }

    /**
     * Allocates up to {@code bytes} outside the heap in chunks, writes a byte of each page, and frees it all once
     * everything is allocated (freeing as it went would hand the same pages back to the next chunk). Returns the bytes
     * written: fewer if the system refused an allocation.
     */
    static long touch(final long bytes)
    {
        final int chunks = (int)((bytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
        final long[] addresses = new long[chunks];
        long written = 0;
        int allocated = 0;
        try
        {
            for (; allocated < chunks; allocated++)
            {
                final long size = Math.min(CHUNK_BYTES, bytes - written);
                final long address = UNSAFE.allocateMemory(size);
                addresses[allocated] = address;
                for (long page = 0; page < size; page += PAGE_BYTES)
                {
                    UNSAFE.putByte(address + page, (byte)1);
                }
                written += size;
            }
        }
        catch (final OutOfMemoryError ex)
        {
            // the machine has less to spare than /proc/meminfo said a moment ago: what was written is enough
        }
        finally
        {
            for (int i = 0; i < allocated; i++)
            {
                UNSAFE.freeMemory(addresses[i]);
            }
        }
        return written;
    }

    /** A /proc/meminfo figure ("MemFree:  123456 kB") in bytes, 0 if absent. */
    static long meminfoBytes(final String meminfo, final String key)
    {
        for (final String line : meminfo.split("\n"))
        {
            if (line.startsWith(key + ":"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024L;
            }
        }
        return 0;
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
