package org.fixlab.engine.jvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does ahead of time what HotSpot does on the calling thread when it first asks C2 to compile a method, so that a
 * compile first asked for inside a measured window (or any stretch meant to be garbage-free) allocates nothing there.
 *
 * <p>Before HotSpot queues a C2 compile ({@code CompileBroker::compile_method}, Java 17 to 25 at least), the thread
 * whose call crossed the threshold, the engine's thread here, does two things:
 * <ul>
 *   <li>it resolves every String constant of the method's class. A literal nobody has used yet (an error text, a log
 *       line) becomes a new interned String then: 80 bytes for a 40-character text, about 2.5 KB for all of
 *       {@code Session}'s, once per class. Resolution finds a string the JVM has interned already and makes none, so
 *       {@link #internLiterals} interns them first; the JVM holds its interned strings weakly, so this class holds
 *       them too. The constants include texts HotSpot adds to some classes when it links them
 *       ({@link OverpassMessages}), which {@link #internLiterals} works out and interns with the literals.</li>
 *   <li>it loads the classes the method's signature names. One not loaded yet gets its {@code Class} there (128-152
 *       bytes). {@link #loadClasses} loads them first.</li>
 * </ul>
 * A method that runs once per duty cycle rather than once per message reaches C2 a second or more into a run, so a
 * window that follows a warm-up of a few million messages could still catch one: 2,240 bytes on the optimized
 * stream's client in some runs, 304-416 on {@code balanced}'s client in most and 192 on its server in some.
 *
 * <p>Literals are read from class files (their constant pools; the classes are not loaded), in the jar or directory
 * of an anchor class, or in the JDK's runtime image for a JDK class. Where that location cannot be read (a nested
 * jar, a custom class loader) those classes are skipped with one log line: the engine works the same, only not
 * garbage-free across a late compile.
 */
public final class FirstCompileResolution
{
    private static final Logger LOG = LoggerFactory.getLogger(FirstCompileResolution.class);

    /** Strong references to every literal interned here: the JVM's string table alone would let them be collected. */
    private static final Set<String> PINNED = new HashSet<>();
    /** The anchors' locations and prefixes already read, so each is read once per JVM. */
    private static final Set<String> DONE = new HashSet<>();
    /** Whether {@link #prepareEngineThreads} has run: every {@code FixEngine} calls it, the first does the work. */
    private static boolean enginePrepared;

    private FirstCompileResolution()
    {
    }

    /**
     * Everything an engine thread runs, once per JVM, by the first {@code FixEngine}. Literals: the engine's classes,
     * Agrona's (buffers, clocks, idle strategies), and the JDK classes its duty cycle calls into whose first C2 compile
     * came a second or more into a stream under {@code -XX:+LogCompilation}: buffers, socket and file channels, the
     * channels' locks, the atomics behind them, the thread a file write marks itself blocked on, the event loop's lists
     * and the selector's queue of key updates ({@code ArrayDeque}: 192 bytes on {@code balanced}'s server in 3 runs of
     * 10 without it), and the selector's key set, a {@code ConcurrentHashMap} view behind
     * {@code Collections.unmodifiableSet}, which an initiator's network poll asks whether it is empty (352 bytes on
     * the thread of {@code balanced}'s benchmark client, inside the measured window, in 5 of 74 round-trip runs
     * without it, when the poll's count of calls reached C2's threshold there); the number helpers the codecs call
     * ({@code Integer}, {@code Math}, the JDK's index checks) and {@code sun.misc.Unsafe}, whose first C2 compiles
     * async-profiler's allocation profile showed resolving their literals on an engine thread in the warm-up. With the
     * texts of the methods HotSpot adds to some classes ({@link OverpassMessages}), some 1,500 strings and 100 KB, read
     * in 100-200 ms. Classes: the two that {@code -Xlog:class+load} showed loaded on {@code balanced}'s server thread a
     * second into the stream, each by the first C2 compile of a method in the JDK's socket read that names it.
     */
    public static synchronized void prepareEngineThreads()
    {
        if (enginePrepared)
        {
            return;
        }
        enginePrepared = true;
        internLiterals(FirstCompileResolution.class, "org/fixlab/engine/");
        internLiterals(org.agrona.DirectBuffer.class, "org/agrona/");
        internLiterals(java.nio.ByteBuffer.class, "java/nio/", "sun/nio/ch/", "java/util/concurrent/locks/",
            "java/lang/Thread", "java/lang/Class", "java/lang/Long", "java/util/ArrayList", "java/util/ArrayDeque",
            "java/lang/invoke/VarHandle", "java/lang/invoke/VarHandleGuards", "java/lang/invoke/VarHandleInts",
            "java/lang/invoke/VarHandleLongs", "java/lang/invoke/VarHandleReferences", "java/lang/invoke/VarForm",
            "java/lang/Integer", "java/lang/Math", "jdk/internal/util/Preconditions",
            "java/util/concurrent/ConcurrentHashMap", "java/util/Collections");
        internLiterals(org.agrona.UnsafeAccess.UNSAFE.getClass(), "sun/misc/Unsafe");
        loadClasses(null, "jdk.internal.misc.ScopedMemoryAccess$Scope$Handle",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer$Node");
    }

    /**
     * Loads (without initialising) each class named, by {@code loader} (null: the JDK's own). A name this JVM does
     * not have (another JDK version's) is skipped. Returns how many were found.
     */
    public static int loadClasses(final ClassLoader loader, final String... names)
    {
        int found = 0;
        for (final String name : names)
        {
            try
            {
                Class.forName(name, false, loader);
                found++;
            }
            catch (final ClassNotFoundException | LinkageError ex)
            {
                LOG.debug("{} not loaded ahead of the JIT: {}", name, ex.toString());
            }
        }
        return found;
    }

    /**
     * Interns and holds the literals of the class files that {@code prefixes} name (a package and its subpackages,
     * {@code "org/agrona/"}, or a class and its nested classes, {@code "java/lang/Thread"}) in the jar, directory or
     * runtime module that {@code anchor} was loaded from. Returns the number of literals this call added (0 when all
     * were held already, or the location could not be read).
     */
    public static synchronized int internLiterals(final Class<?> anchor, final String... prefixes)
    {
        final int before = PINNED.size();
        try
        {
            final Location location = Location.of(anchor);
            if (location == null)
            {
                LOG.info("String literals of {} not interned ahead of the JIT: its classes are not in a jar, directory or "
                    + "the runtime image", anchor.getName());
                return 0;
            }
            final Map<String, ClassFileSummary> read = new HashMap<>();
            for (final String prefix : prefixes)
            {
                if (DONE.add(location + "!" + prefix))
                {
                    location.forEachClassFile(prefix, classFile ->
                    {
                        final ClassFileSummary summary = internStringConstants(classFile);
                        if (summary != null && summary.name() != null)
                        {
                            read.put(summary.name(), summary);
                        }
                    });
                }
            }
            for (final String message : OverpassMessages.of(read, anchor.getClassLoader()))
            {
                PINNED.add(message.intern());
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            LOG.info("String literals of {} not all interned ahead of the JIT: {}", anchor.getName(), ex.toString());
        }
        return PINNED.size() - before;
    }

    /** Whether {@code literal} is held here (for tests). */
    static synchronized boolean holds(final String literal)
    {
        return PINNED.contains(literal);
    }

    /** Interns and holds a class file's String constants (JVMS 4.4); returns what it read of the class, or null. */
    static ClassFileSummary internStringConstants(final byte[] classFile) throws IOException
    {
        final ClassFileSummary summary = ClassFileSummary.parse(classFile);
        if (summary != null)
        {
            for (final String value : summary.strings())
            {
                PINNED.add(value.intern());
            }
        }
        return summary;
    }

    /** Whether the class file {@code name} ("org/agrona/DirectBuffer.class") is one that {@code prefix} names. */
    static boolean named(final String name, final String prefix)
    {
        if (!name.endsWith(".class"))
        {
            return false;
        }
        return prefix.endsWith("/") ? name.startsWith(prefix) : name.equals(prefix + ".class") || name.startsWith(prefix + "$");
    }

    private interface ClassFileAction
    {
        void accept(byte[] classFile) throws IOException;
    }

    /** Where an anchor's classes are: a jar, or a tree of class files (a directory, or a module of the runtime image). */
    private record Location(Path jar, Path tree)
    {
        static Location of(final Class<?> anchor) throws IOException
        {
            final CodeSource source = anchor.getProtectionDomain().getCodeSource();
            if (source == null)
            {
                // the JDK's own classes: their module in the runtime image
                final String module = anchor.getModule().getName();
                return module == null ? null
                    : new Location(null, FileSystems.getFileSystem(URI.create("jrt:/")).getPath("modules", module));
            }
            final Path path;
            try
            {
                path = source.getLocation() == null || !"file".equals(source.getLocation().getProtocol()) ? null
                    : Path.of(source.getLocation().toURI());
            }
            catch (final URISyntaxException | IllegalArgumentException ex)
            {
                return null;
            }
            if (path == null)
            {
                return null;
            }
            return Files.isDirectory(path) ? new Location(null, path) : Files.isRegularFile(path) ? new Location(path, null) : null;
        }

        void forEachClassFile(final String prefix, final ClassFileAction action) throws IOException
        {
            if (jar != null)
            {
                try (JarFile file = new JarFile(jar.toFile()))
                {
                    final Enumeration<JarEntry> entries = file.entries();
                    while (entries.hasMoreElements())
                    {
                        final JarEntry entry = entries.nextElement();
                        if (named(entry.getName(), prefix))
                        {
                            try (InputStream in = file.getInputStream(entry))
                            {
                                action.accept(in.readAllBytes());
                            }
                        }
                    }
                }
                return;
            }
            // the deepest directory the prefix names; below it, a package's subpackages, or a class's own directory only
            final Path root = tree.resolve(prefix.substring(0, prefix.lastIndexOf('/') + 1));
            if (!Files.isDirectory(root))
            {
                return;
            }
            try (Stream<Path> files = Files.walk(root, prefix.endsWith("/") ? Integer.MAX_VALUE : 1))
            {
                final Iterable<Path> matching = files.filter(f -> named(resourceName(f), prefix))::iterator;
                for (final Path file : matching)
                {
                    action.accept(Files.readAllBytes(file));
                }
            }
        }

        /** A class file's path below the tree, '/'-separated as in a jar: "org/agrona/DirectBuffer.class". */
        private String resourceName(final Path file)
        {
            final Path relative = tree.relativize(file);
            final StringBuilder name = new StringBuilder();
            for (final Path part : relative)
            {
                name.append(name.length() == 0 ? "" : "/").append(part);
            }
            return name.toString();
        }

        @Override
        public String toString()
        {
            return String.valueOf(jar != null ? jar : tree.toUri());
        }
    }
}
