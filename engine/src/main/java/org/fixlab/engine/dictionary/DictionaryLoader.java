package org.fixlab.engine.dictionary;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Reads a QuickFIX-format XML dictionary (fields, header, trailer, messages, components) into a
 * {@link DataDictionary}. Components are expanded and group member order recorded the way
 * QuickFIX/J 2.3.2 does it, because that decides which tag a reject names.
 */
final class DictionaryLoader
{
    private final String source;
    private final Map<String, Element> components = new HashMap<>();
    private final Map<String, Integer> tagsByName = new HashMap<>();
    private final Int2ObjectHashMap<FieldDef> fields = new Int2ObjectHashMap<>();

    private DictionaryLoader(final String source)
    {
        this.source = source;
    }

    static DataDictionary load(final InputStream in, final String source)
    {
        return new DictionaryLoader(source).read(parse(in, source));
    }

    private static Document parse(final InputStream in, final String source)
    {
        try
        {
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            final DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(in);
        }
        catch (final SAXParseException e)
        {
            throw new InvalidDictionaryException(
                source + ": not well-formed XML at line " + e.getLineNumber() + ", column " + e.getColumnNumber() +
                ": " + e.getMessage(), e);
        }
        catch (final SAXException | ParserConfigurationException e)
        {
            throw new InvalidDictionaryException(source + ": cannot parse the XML: " + e.getMessage(), e);
        }
        catch (final IOException e)
        {
            throw new InvalidDictionaryException(source + ": cannot read the dictionary: " + e.getMessage(), e);
        }
    }

    private DataDictionary read(final Document document)
    {
        final Element root = document.getDocumentElement();
        if (!"fix".equals(root.getNodeName()))
        {
            throw error("the root element is <" + root.getNodeName() + ">, expected <fix major=\"4\" minor=\"2\">");
        }
        final String major = requiredAttribute(root, "major", "<fix>");
        final String minor = requiredAttribute(root, "minor", "<fix>");
        final String type = root.hasAttribute("type") ? root.getAttribute("type") : "FIX";
        final String beginString = type + "." + major + "." + minor;

        final Element componentsSection = firstChild(root, "components");
        if (componentsSection != null)
        {
            for (final Element component : children(componentsSection, "component"))
            {
                components.put(requiredAttribute(component, "name", "<component>"), component);
            }
        }

        readFields(root);

        final boolean hasHeaderAndTrailer = beginString.startsWith("FIXT") || beginString.compareTo("FIX.5.0") < 0;
        final StructureDef header = hasHeaderAndTrailer ? readSection(root, "header") : emptyStructure();
        final StructureDef trailer = hasHeaderAndTrailer ? readSection(root, "trailer") : emptyStructure();

        final Element messagesSection = firstChild(root, "messages");
        if (messagesSection == null)
        {
            throw error("no <messages> section");
        }
        final Map<String, MessageDef> messages = new LinkedHashMap<>();
        for (final Element message : children(messagesSection, "message"))
        {
            final String msgType = requiredAttribute(message, "msgtype", "<message>");
            final String name = message.hasAttribute("name") ? message.getAttribute("name") : null;
            final StructureBuilder body = new StructureBuilder();
            readStructure(message, body, "message " + (name != null ? name : msgType));
            messages.put(msgType, new MessageDef(
                msgType, name, "admin".equals(message.getAttribute("msgcat")), body.fields, body.requiredInCheckOrder(), body.groups));
        }
        if (messages.isEmpty())
        {
            throw error("the <messages> section defines no <message>");
        }
        return new DataDictionary(source, beginString, fields, header, trailer, messages);
    }

    private void readFields(final Element root)
    {
        final Element section = firstChild(root, "fields");
        if (section == null)
        {
            throw error("no <fields> section");
        }
        for (final Element field : children(section, "field"))
        {
            final String name = requiredAttribute(field, "name", "<field>");
            final String where = "<field name=\"" + name + "\">";
            final int tag = parseTag(requiredAttribute(field, "number", where), where);
            final String typeName = requiredAttribute(field, "type", where);
            final FieldType type = FieldType.byName(typeName);
            if (type == null)
            {
                throw error(where + " has unknown type \"" + typeName + "\" (QuickFIX types are STRING, CHAR, INT, " +
                    "PRICE, QTY, AMT, FLOAT, BOOLEAN, UTCTIMESTAMP, NUMINGROUP, ... as in FieldType)");
            }
            if (tagsByName.put(name, tag) != null)
            {
                throw error("field " + name + " is defined more than once");
            }
            final Set<String> values = new LinkedHashSet<>();
            for (final Element value : children(field, "value"))
            {
                values.add(requiredAttribute(value, "enum", "<value> of " + where));
            }
            final EnumValues enumValues = values.isEmpty() ? null :
                new EnumValues(values, Boolean.parseBoolean(field.getAttribute("allowOtherValues")));
            fields.put(tag, new FieldDef(tag, name, type, enumValues));
        }
        if (fields.isEmpty())
        {
            throw error("the <fields> section defines no <field>");
        }
    }

    private StructureDef readSection(final Element root, final String sectionName)
    {
        final Element section = firstChild(root, sectionName);
        if (section == null)
        {
            throw error("no <" + sectionName + "> section");
        }
        final StructureBuilder builder = new StructureBuilder();
        readStructure(section, builder, "<" + sectionName + ">");
        return new StructureDef(builder.fields, builder.requiredInCheckOrder(), builder.groups);
    }

    /** The children of a message, header or trailer. */
    private void readStructure(final Element parent, final StructureBuilder target, final String where)
    {
        final List<Element> elements = children(parent, null);
        if (elements.isEmpty())
        {
            throw error(where + " has no fields");
        }
        for (final Element child : elements)
        {
            final String kind = child.getNodeName();
            if ("field".equals(kind) || "group".equals(kind))
            {
                final int tag = tagOf(child, where);
                target.addField(tag);
                if (isYes(requiredAttribute(child, "required", "<" + kind + " name=\"" + child.getAttribute("name") + "\"> in " + where)))
                {
                    target.addRequired(tag);
                }
                if ("group".equals(kind))
                {
                    readGroup(child, target, isYes(child.getAttribute("required")), where);
                }
            }
            else if ("component".equals(kind))
            {
                readComponent(child, target, isYes(requiredAttribute(child, "required", componentWhere(child, where))), where);
            }
        }
    }

    /** Expands a component into target; returns its first field (a group's delimiter if it starts one). */
    private int readComponent(final Element reference, final StructureBuilder target, final boolean componentRequired, final String where)
    {
        final String name = requiredAttribute(reference, "name", "<component> in " + where);
        final Element component = components.get(name);
        if (component == null)
        {
            throw error("component " + name + " used in " + where + " is not defined in <components>");
        }
        final String inside = "component " + name;
        int firstField = 0;
        for (final Element child : children(component, null))
        {
            final String kind = child.getNodeName();
            if ("field".equals(kind) || "group".equals(kind))
            {
                final int tag = tagOf(child, inside);
                if (firstField == 0)
                {
                    firstField = tag;
                }
                final boolean required = isYes(requiredAttribute(child, "required", "<" + kind + " name=\"" + child.getAttribute("name") + "\"> in " + inside));
                if (required && componentRequired)
                {
                    target.addRequired(tag);
                }
                target.addField(tag);
                if ("group".equals(kind))
                {
                    readGroup(child, target, required, inside);
                }
            }
            else if ("component".equals(kind))
            {
                readComponent(child, target, isYes(requiredAttribute(child, "required", componentWhere(child, inside))), inside);
            }
        }
        return firstField;
    }

    private void readGroup(final Element group, final StructureBuilder parent, final boolean groupRequired, final String where)
    {
        final int countTag = tagOf(group, where);
        final String inside = "group " + group.getAttribute("name");
        final StructureBuilder entry = new StructureBuilder();
        int delimiter = 0;
        for (final Element child : children(group, null))
        {
            final String kind = child.getNodeName();
            int field = 0;
            if ("field".equals(kind) || "group".equals(kind))
            {
                field = tagOf(child, inside);
                entry.addField(field);
                final boolean required = isYes(child.getAttribute("required"));
                // QuickFIX/J only enforces an entry's required fields when the group itself is required.
                if (required && groupRequired)
                {
                    entry.addRequired(field);
                }
                if ("group".equals(kind))
                {
                    readGroup(child, entry, required, inside);
                }
            }
            else if ("component".equals(kind))
            {
                field = readComponent(child, entry, isYes(child.getAttribute("required")), inside);
            }
            if (delimiter == 0)
            {
                delimiter = field;
            }
        }
        if (delimiter != 0)
        {
            parent.groups.put(countTag, new GroupDef(
                countTag, delimiter, entry.order(), entry.fields, entry.requiredInCheckOrder(), entry.groups));
        }
    }

    private int tagOf(final Element element, final String where)
    {
        final String name = requiredAttribute(element, "name", "<" + element.getNodeName() + "> in " + where);
        final Integer tag = tagsByName.get(name);
        if (tag == null)
        {
            throw error(where + " uses field " + name + ", which is not defined in <fields>");
        }
        return tag;
    }

    private int parseTag(final String number, final String where)
    {
        try
        {
            return Integer.parseInt(number.trim());
        }
        catch (final NumberFormatException e)
        {
            throw error(where + " has number=\"" + number + "\", which is not an integer tag");
        }
    }

    private String requiredAttribute(final Element element, final String attribute, final String where)
    {
        if (!element.hasAttribute(attribute))
        {
            throw error(where + " has no " + attribute + " attribute");
        }
        return element.getAttribute(attribute);
    }

    private static String componentWhere(final Element component, final String where)
    {
        return "<component name=\"" + component.getAttribute("name") + "\"> in " + where;
    }

    private static boolean isYes(final String value)
    {
        return "Y".equalsIgnoreCase(value);
    }

    private InvalidDictionaryException error(final String problem)
    {
        return new InvalidDictionaryException(source + ": " + problem);
    }

    private static StructureDef emptyStructure()
    {
        return new StructureDef(new IntHashSet(), new int[0], new Int2ObjectHashMap<>());
    }

    private static Element firstChild(final Element parent, final String name)
    {
        final List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(final Element parent, final String name)
    {
        final List<Element> result = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling())
        {
            if (node.getNodeType() == Node.ELEMENT_NODE && (name == null || name.equals(node.getNodeName())))
            {
                result.add((Element)node);
            }
        }
        return result;
    }

    /** Collects one structure while reading; insertion orders matter (see requiredInCheckOrder). */
    private static final class StructureBuilder
    {
        final IntHashSet fields = new IntHashSet();
        final LinkedHashSet<Integer> order = new LinkedHashSet<>();
        final LinkedHashSet<Integer> required = new LinkedHashSet<>();
        final Int2ObjectHashMap<GroupDef> groups = new Int2ObjectHashMap<>();

        void addField(final int tag)
        {
            fields.add(tag);
            order.add(tag);
        }

        void addRequired(final int tag)
        {
            required.add(tag);
        }

        int[] order()
        {
            return order.stream().mapToInt(Integer::intValue).toArray();
        }

        /**
         * QuickFIX/J keeps required tags in a java.util.HashSet and reports the first missing one
         * it meets, so the order is HashMap's: by bucket (spread hash masked by the table size the
         * set grew to), then by insertion within a bucket.
         */
        int[] requiredInCheckOrder()
        {
            final int size = required.size();
            int capacity = 16;
            while (size > capacity * 3 / 4)
            {
                capacity <<= 1;
            }
            final int mask = capacity - 1;
            final List<Integer> sorted = new ArrayList<>(required);
            sorted.sort((a, b) -> Integer.compare(bucket(a, mask), bucket(b, mask)));
            return sorted.stream().mapToInt(Integer::intValue).toArray();
        }

        private static int bucket(final int tag, final int mask)
        {
            return (tag ^ (tag >>> 16)) & mask;
        }
    }
}
