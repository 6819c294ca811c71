package org.fixlab.engine.jvm;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link FirstCompileResolution} reads of a class file (JVMS 4): its String constants, and the shape that decides
 * which methods HotSpot adds to it when it links the class (its name, superclass, interfaces and methods).
 *
 * @param name          the class's internal name ("org/fixlab/engine/store/PersistentStore"), null when the class
 *                      file could only be read as far as its constant pool
 * @param superName     the superclass's internal name, null for java/lang/Object or an unread class
 * @param interfaces    the interfaces it names directly
 * @param isInterface   whether it is an interface
 * @param strings       the values of its CONSTANT_String entries
 * @param methods       the methods it declares
 */
record ClassFileSummary(String name, String superName, List<String> interfaces, boolean isInterface, List<String> strings,
    List<MethodSummary> methods)
{
    private static final int CLASS_FILE_MAGIC = 0xCAFEBABE;
    private static final int ACC_PRIVATE = 0x0002;
    private static final int ACC_STATIC = 0x0008;
    private static final int ACC_INTERFACE = 0x0200;
    private static final int ACC_ABSTRACT = 0x0400;

    /** A declared method: its name, descriptor ("(I)V") and access flags. */
    record MethodSummary(String name, String descriptor, int accessFlags)
    {
        /** The name and descriptor, which identify a method among a class's: "reset()V". */
        String key()
        {
            return name + descriptor;
        }

        boolean isAbstract()
        {
            return (accessFlags & ACC_ABSTRACT) != 0;
        }

        /** Static and private methods take no part in overriding. */
        boolean isInherited()
        {
            return (accessFlags & (ACC_STATIC | ACC_PRIVATE)) == 0;
        }
    }

    /**
     * Reads a class file: null when the bytes are not one (no magic number), an error when its constant pool is cut
     * short. A constant pool tag this reader does not know (a newer class file version), or a file cut short after its
     * pool, ends the reading: the strings read so far are kept, with no name or methods.
     */
    static ClassFileSummary parse(final byte[] classFile) throws IOException
    {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != CLASS_FILE_MAGIC)
        {
            return null;
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        final int count = in.readUnsignedShort();
        final String[] utf8 = new String[count];
        final int[] classNameIndex = new int[count];
        final List<Integer> stringIndexes = new ArrayList<>();
        boolean poolRead = true;
        entries:
        for (int i = 1; i < count; i++)
        {
            final int tag = in.readUnsignedByte();
            switch (tag)
            {
                case 1 -> utf8[i] = in.readUTF(); // CONSTANT_Utf8 is DataInput's modified UTF-8, length first
                case 7 -> classNameIndex[i] = in.readUnsignedShort();
                case 8 -> stringIndexes.add(in.readUnsignedShort());
                case 16, 19, 20 -> in.skipBytes(2); // MethodType, Module, Package
                case 15 -> in.skipBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4); // Integer, Float, the refs, NameAndType, (Invoke)Dynamic
                case 5, 6 ->
                {
                    in.skipBytes(8); // Long and Double take two entries
                    i++;
                }
                default ->
                {
                    poolRead = false;
                    break entries;
                }
            }
        }
        final List<String> strings = new ArrayList<>();
        for (final int index : stringIndexes)
        {
            if (index < count && utf8[index] != null)
            {
                strings.add(utf8[index]);
            }
        }
        if (poolRead)
        {
            try
            {
                return withShape(in, utf8, classNameIndex, strings);
            }
            catch (final IOException ex)
            {
                // cut short after its constant pool: its strings are still good
            }
        }
        return new ClassFileSummary(null, null, List.of(), false, strings, List.of());
    }

    private static ClassFileSummary withShape(final DataInputStream in, final String[] utf8, final int[] classNameIndex,
        final List<String> strings) throws IOException
    {
        final int accessFlags = in.readUnsignedShort();
        final String name = className(utf8, classNameIndex, in.readUnsignedShort());
        final String superName = className(utf8, classNameIndex, in.readUnsignedShort());
        final List<String> interfaces = new ArrayList<>();
        for (int i = in.readUnsignedShort(); i > 0; i--)
        {
            interfaces.add(className(utf8, classNameIndex, in.readUnsignedShort()));
        }
        for (int i = in.readUnsignedShort(); i > 0; i--) // fields: flags, name, descriptor, attributes
        {
            skipFully(in, 6);
            skipAttributes(in);
        }
        final List<MethodSummary> methods = new ArrayList<>();
        for (int i = in.readUnsignedShort(); i > 0; i--)
        {
            final int flags = in.readUnsignedShort();
            final String methodName = utf8[in.readUnsignedShort()];
            final String descriptor = utf8[in.readUnsignedShort()];
            methods.add(new MethodSummary(methodName, descriptor, flags));
            skipAttributes(in);
        }
        return new ClassFileSummary(name, superName, interfaces, (accessFlags & ACC_INTERFACE) != 0, strings, methods);
    }

    private static String className(final String[] utf8, final int[] classNameIndex, final int index)
    {
        return index == 0 ? null : utf8[classNameIndex[index]];
    }

    private static void skipAttributes(final DataInputStream in) throws IOException
    {
        for (int i = in.readUnsignedShort(); i > 0; i--)
        {
            skipFully(in, 2);
            skipFully(in, in.readInt());
        }
    }

    /** DataInput's skipBytes stops quietly at the end of the bytes; a class file that ends inside a part is cut short. */
    private static void skipFully(final DataInputStream in, final int bytes) throws IOException
    {
        if (in.skipBytes(bytes) != bytes)
        {
            throw new EOFException("class file ends inside an attribute or a field");
        }
    }
}
