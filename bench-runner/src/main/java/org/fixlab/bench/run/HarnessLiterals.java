package org.fixlab.bench.run;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Interns and holds the String literals of the runner's own classes before a client or server runs, for every
 * product alike.
 *
 * <p>Why: the harness's classes run on the measured threads too, and HotSpot resolves a class's String literals on
 * the thread that first asks C2 to compile one of its methods; resolution finds a string already interned and makes
 * none. The server loop's first C2 compile, a second and a half into {@code balanced}'s stream, resolved
 * {@code BenchServer}'s strings: 392 bytes on the measured thread, inside the measured million in 7 runs of 10.
 *
 * <p>The engine does the same for its own classes ({@code org.fixlab.engine.jvm.FirstCompileResolution}), but the
 * harness keeps this small copy for its classes: it also drives older engines (make bench VERSIONS=...), which do
 * not have that class, and reaches any engine only through {@code EngineApi}.
 */
public final class HarnessLiterals
{
    /** Bytes after a constant pool entry's tag, by tag (JVMS 4.4); 0 for the tags read apart (1 Utf8, 8 String). */
    private static final int[] ENTRY_BYTES = {-1, 0, -1, 4, 4, 8, 8, 2, 0, 4, 4, 4, 4, -1, -1, 3, 2, 4, 4, 2, 2};
    private static final String PACKAGE = "org/fixlab/bench/";
    private static final List<String> HELD = new ArrayList<>();

    private HarnessLiterals()
    {
    }

    /** Once per JVM; a harness that is not in a jar or directory (nothing the build makes) is left as it is. */
    public static synchronized void internAll()
    {
        if (!HELD.isEmpty())
        {
            return;
        }
        try
        {
            final Path location = Path.of(HarnessLiterals.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(location))
            {
                try (Stream<Path> files = Files.walk(location.resolve(PACKAGE)))
                {
                    for (final Path file : (Iterable<Path>)files.filter(f -> f.toString().endsWith(".class"))::iterator)
                    {
                        internLiterals(Files.readAllBytes(file));
                    }
                }
                return;
            }
            try (JarFile jar = new JarFile(location.toFile()))
            {
                final Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements())
                {
                    final JarEntry entry = entries.nextElement();
                    if (entry.getName().startsWith(PACKAGE) && entry.getName().endsWith(".class"))
                    {
                        try (InputStream in = jar.getInputStream(entry))
                        {
                            internLiterals(in.readAllBytes());
                        }
                    }
                }
            }
        }
        catch (final IOException | java.net.URISyntaxException | RuntimeException ex)
        {
            System.err.println("fixlab-bench: the harness's literals were not interned ahead of the JIT: " + ex);
        }
    }

    static synchronized boolean holds(final String literal)
    {
        return HELD.contains(literal);
    }

    private static void internLiterals(final byte[] classFile) throws IOException
    {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        in.skipBytes(8);
        final int count = in.readUnsignedShort();
        final String[] utf8 = new String[count];
        final int[] strings = new int[count];
        int found = 0;
        for (int i = 1; i < count; i++)
        {
            final int tag = in.readUnsignedByte();
            if (tag == 1)
            {
                utf8[i] = in.readUTF();
            }
            else if (tag == 8)
            {
                strings[found++] = in.readUnsignedShort();
            }
            else if (tag < ENTRY_BYTES.length && ENTRY_BYTES[tag] > 0)
            {
                in.skipBytes(ENTRY_BYTES[tag]);
                i += tag == 5 || tag == 6 ? 1 : 0; // a Long or a Double takes two entries
            }
            else
            {
                break; // a tag of a newer class file version: keep what was read
            }
        }
        for (int s = 0; s < found; s++)
        {
            if (strings[s] < count && utf8[strings[s]] != null)
            {
                HELD.add(utf8[strings[s]].intern());
            }
        }
    }
}
