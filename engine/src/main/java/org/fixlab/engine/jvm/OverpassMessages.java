package org.fixlab.engine.jvm;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fixlab.engine.jvm.ClassFileSummary.MethodSummary;

/**
 * The texts HotSpot puts in a class's constant pool when it links it, beside the class file's own literals.
 *
 * <p>A class that leaves a method of one of its interfaces to its subclasses (an abstract class that implements
 * an interface with default methods, such as the persistent stores' base class) gets a method HotSpot writes for it
 * (an "overpass", {@code defaultMethods.cpp}): it throws {@code AbstractMethodError("Method
 * org/fixlab/engine/store/PersistentStore.reset()V is abstract")}, and the text joins the class's constant pool. The
 * first C2 compile of any method of that class resolves it with the rest: 256 bytes on a {@code balanced} session's
 * first compile of {@code PersistentStore.flush}, which can fall a few seconds into a run (Java 17 and 25).
 *
 * <p>This works the texts out from the class files, for every class that does not declare (itself or through its
 * superclasses) a method one of its interfaces declares abstract. HotSpot writes them only where the interfaces
 * also have default methods; a text for a class that has none is interned for nothing, which costs a few bytes.
 * Types that are not among the class files read (a JDK or library interface) are looked at through reflection,
 * which loads them without initialising them; one that cannot be loaded is left out.
 */
final class OverpassMessages
{
    private final Map<String, ClassFileSummary> read;
    private final ClassLoader loader;
    private final Map<String, ClassFileSummary> reflected = new HashMap<>();

    private OverpassMessages(final Map<String, ClassFileSummary> read, final ClassLoader loader)
    {
        this.read = read;
        this.loader = loader;
    }

    /**
     * The texts of the classes in {@code read} (by internal name, so each one's name was read), their other types
     * loaded by {@code loader}.
     */
    static List<String> of(final Map<String, ClassFileSummary> read, final ClassLoader loader)
    {
        return new OverpassMessages(read, loader).messages();
    }

    private List<String> messages()
    {
        final List<String> messages = new ArrayList<>();
        for (final ClassFileSummary type : read.values())
        {
            if (type.isInterface())
            {
                continue;
            }
            final Set<String> declared = new HashSet<>();
            final Set<String> interfaces = new HashSet<>();
            for (ClassFileSummary c = type; c != null; c = summary(c.superName()))
            {
                for (final MethodSummary method : c.methods())
                {
                    if (method.isInherited())
                    {
                        declared.add(method.key());
                    }
                }
                for (final String name : c.interfaces())
                {
                    addWithSuperinterfaces(name, interfaces);
                }
            }
            final Set<String> abstractKeys = new HashSet<>();
            for (final String name : interfaces)
            {
                for (final MethodSummary method : summary(name).methods())
                {
                    if (method.isAbstract() && method.isInherited() && !declared.contains(method.key()))
                    {
                        abstractKeys.add(method.key());
                    }
                }
            }
            for (final String key : abstractKeys)
            {
                messages.add("Method " + type.name() + "." + key + " is abstract");
            }
        }
        return messages;
    }

    private void addWithSuperinterfaces(final String name, final Set<String> interfaces)
    {
        final ClassFileSummary type = summary(name);
        if (type != null && interfaces.add(name))
        {
            for (final String parent : type.interfaces())
            {
                addWithSuperinterfaces(parent, interfaces);
            }
        }
    }

    /** A type read from its class file, else through reflection; null for none (java/lang/Object's superclass). */
    private ClassFileSummary summary(final String name)
    {
        if (name == null)
        {
            return null;
        }
        final ClassFileSummary fromFile = read.get(name);
        return fromFile != null ? fromFile : reflected.computeIfAbsent(name, this::reflect);
    }

    private ClassFileSummary reflect(final String name)
    {
        try
        {
            return reflect(Class.forName(name.replace('/', '.'), false, loader));
        }
        catch (final ClassNotFoundException | LinkageError ex)
        {
            return null; // not on this class path, or a method names a class that is not
        }
    }

    /** Reflection's modifiers are the class file's access flags (JVMS 4.6), which MethodSummary reads. */
    private static ClassFileSummary reflect(final Class<?> type)
    {
        final List<MethodSummary> methods = new ArrayList<>();
        for (final Method method : type.getDeclaredMethods())
        {
            final StringBuilder descriptor = new StringBuilder("(");
            for (final Class<?> parameter : method.getParameterTypes())
            {
                descriptor.append(parameter.descriptorString());
            }
            descriptor.append(')').append(method.getReturnType().descriptorString());
            methods.add(new MethodSummary(method.getName(), descriptor.toString(), method.getModifiers()));
        }
        final List<String> interfaces = new ArrayList<>();
        for (final Class<?> parent : type.getInterfaces())
        {
            interfaces.add(internalName(parent));
        }
        final Class<?> superclass = type.getSuperclass();
        return new ClassFileSummary(internalName(type), superclass == null ? null : internalName(superclass), interfaces,
            type.isInterface(), List.of(), methods);
    }

    private static String internalName(final Class<?> type)
    {
        return type.getName().replace('.', '/');
    }

}
