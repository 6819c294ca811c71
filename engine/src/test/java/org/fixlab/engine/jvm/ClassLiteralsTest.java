package org.fixlab.engine.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;

class ClassLiteralsTest
{
    @Test
    void theFirstC2CompileOfAClassAllocatesItsUnusedLiteralsUnlessTheyArePinned()
    {
        final long unpinned = Driver.allocatedWhileCompiling(new Unpinned());
        // the mechanism must show in this JVM (C2 on, the literals not interned by anything else), or there is nothing to test
        assumeTrue(unpinned > 0, "no C2 compile of Unpinned.next allocated on this JVM");

        assertEquals(4, ClassLiterals.pin(ClassLiteralsTest.class, "org/fixlab/engine/jvm/ClassLiteralsTest$Pinned"));
        assertEquals(0, Driver.allocatedWhileCompiling(new Pinned()),
            "Unpinned, the same class with other texts, allocated " + unpinned + " bytes");
    }

    @Test
    void readsJarsAndTheRuntimeImage()
    {
        ClassLiterals.pin(BackoffIdleStrategy.class, "org/agrona/concurrent/BackoffIdleStrategy");
        assertTrue(ClassLiterals.holds("backoff"));
        ClassLiterals.pin(Object.class, "java/lang/Boolean");
        assertTrue(ClassLiterals.holds("true"));
        assertTrue(ClassLiterals.holds("false"));
    }

    @Test
    void thePrefixOfAClassTakesItsNestedClassesAndNotItsNeighbours()
    {
        ClassLiterals.pin(ClassLiteralsTest.class, "org/fixlab/engine/jvm/ClassLiteralsTest$Nested");
        assertTrue(ClassLiterals.holds("a literal of Nested only"));
        assertTrue(ClassLiterals.holds("a literal of Nested.Inner only"));
        assertFalse(ClassLiterals.holds("a literal of NestedNeighbour only"));
    }

    @Test
    void aPrefixNamesAPackageOrAClassWithItsNestedClasses()
    {
        assertTrue(ClassLiterals.named("org/agrona/concurrent/UnsafeBuffer.class", "org/agrona/"));
        assertTrue(ClassLiterals.named("java/lang/Thread.class", "java/lang/Thread"));
        assertTrue(ClassLiterals.named("java/lang/Thread$State.class", "java/lang/Thread"));
        assertFalse(ClassLiterals.named("java/lang/ThreadLocal.class", "java/lang/Thread"));
        assertFalse(ClassLiterals.named("org/agrona/package-info.txt", "org/agrona/"));
    }

    @Test
    void aClassWithoutALocationIsSkipped() throws IOException
    {
        final byte[] bytes;
        try (InputStream in = ClassLiteralsTest.class.getResourceAsStream("ClassLiteralsTest$Orphan.class"))
        {
            bytes = in.readAllBytes();
        }
        final Class<?> orphan = new ClassLoader(null)
        {
            Class<?> define()
            {
                return defineClass(null, bytes, 0, bytes.length);
            }
        }.define();
        assertEquals(0, ClassLiterals.pin(orphan, "org/fixlab/engine/jvm/"));
        assertFalse(ClassLiterals.holds("a literal of Orphan only"));
    }

    @Test
    void bytesThatAreNotAClassFileAreIgnoredAndATruncatedOneIsAnError() throws IOException
    {
        ClassLiterals.pinStringConstants(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        final byte[] truncated = {(byte)0xCA, (byte)0xFE, (byte)0xBA, (byte)0xBE, 0, 0, 0, 61, 0, 9, 1, 0};
        assertThrows(EOFException.class, () -> ClassLiterals.pinStringConstants(truncated));
    }

    /** Two classes of one shape: their literals are on a path that never runs, so only the JIT ever resolves them. */
    interface Counter
    {
        int next(int i);
    }

    static final class Unpinned implements Counter
    {
        private int total;

        @Override
        public int next(final int i)
        {
            total += i;
            return i == Integer.MIN_VALUE ? describe(i).length() : total;
        }

        private static String describe(final int i)
        {
            return switch (i & 3)
            {
                case 0 -> "an unpinned text that no call ever reaches, the first";
                case 1 -> "an unpinned text that no call ever reaches, the second";
                case 2 -> "an unpinned text that no call ever reaches, the third";
                default -> "an unpinned text that no call ever reaches, the fourth " + i;
            };
        }
    }

    static final class Pinned implements Counter
    {
        private int total;

        @Override
        public int next(final int i)
        {
            total += i;
            return i == Integer.MIN_VALUE ? describe(i).length() : total;
        }

        private static String describe(final int i)
        {
            return switch (i & 3)
            {
                case 0 -> "a pinned text that no call ever reaches, the first";
                case 1 -> "a pinned text that no call ever reaches, the second";
                case 2 -> "a pinned text that no call ever reaches, the third";
                default -> "a pinned text that no call ever reaches, the fourth " + i;
            };
        }
    }

    /** Holds no literal of its own, so that compiling its loop resolves nothing. */
    static final class Driver
    {
        private static final int CALLS = 200_000;

        static long allocatedWhileCompiling(final Counter counter)
        {
            final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long thread = Thread.currentThread().getId();
            threads.getThreadAllocatedBytes(thread);
            final long before = threads.getThreadAllocatedBytes(thread);
            long sum = 0;
            for (int i = 0; i < CALLS; i++)
            {
                sum += counter.next(i);
            }
            final long after = threads.getThreadAllocatedBytes(thread);
            return sum == 42 ? -1 : after - before;
        }
    }

    static final class Nested
    {
        static final String TEXT = "a literal of Nested only";

        static final class Inner
        {
            static final String TEXT = "a literal of Nested.Inner only";
        }
    }

    static final class NestedNeighbour
    {
        static final String TEXT = "a literal of NestedNeighbour only";
    }

    static final class Orphan
    {
        static final String TEXT = "a literal of Orphan only";
    }
}
