package org.fixlab.engine.dictionary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.fixlab.engine.codec.FixVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDictionaryTest
{
    private static final String CUSTOM = String.join("\n",
        "<fix major='4' minor='2'>",
        "  <header>",
        "    <field name='BeginString' required='Y'/><field name='BodyLength' required='Y'/><field name='MsgType' required='Y'/>",
        "    <field name='SenderCompID' required='Y'/><field name='TargetCompID' required='Y'/>",
        "    <field name='MsgSeqNum' required='Y'/><field name='SendingTime' required='Y'/>",
        "  </header>",
        "  <trailer><field name='CheckSum' required='Y'/></trailer>",
        "  <messages>",
        "    <message name='Heartbeat' msgtype='0' msgcat='admin'><field name='TestReqID' required='N'/></message>",
        "    <message name='Quote' msgtype='ZQ' msgcat='app'>",
        "      <field name='Symbol' required='Y'/><component name='Legs' required='N'/><field name='Venue' required='N'/>",
        "    </message>",
        "  </messages>",
        "  <components>",
        "    <component name='Legs'>",
        "      <group name='NoLegs' required='N'><field name='LegSymbol' required='Y'/><field name='LegQty' required='N'/></group>",
        "    </component>",
        "  </components>",
        "  <fields>",
        "    <field number='8' name='BeginString' type='STRING'/><field number='9' name='BodyLength' type='LENGTH'/>",
        "    <field number='35' name='MsgType' type='STRING'/><field number='49' name='SenderCompID' type='STRING'/>",
        "    <field number='56' name='TargetCompID' type='STRING'/><field number='34' name='MsgSeqNum' type='SEQNUM'/>",
        "    <field number='52' name='SendingTime' type='UTCTIMESTAMP'/><field number='10' name='CheckSum' type='STRING'/>",
        "    <field number='112' name='TestReqID' type='STRING'/><field number='55' name='Symbol' type='STRING'/>",
        "    <field number='555' name='NoLegs' type='NUMINGROUP'/><field number='600' name='LegSymbol' type='STRING'/>",
        "    <field number='687' name='LegQty' type='QTY'/>",
        "    <field number='6001' name='Venue' type='CHAR'><value enum='X' description='EXCHANGE'/><value enum='O' description='OTC'/></field>",
        "  </fields>",
        "</fix>");

    @Test
    void standardDictionariesComeFromTheClassPathOnce()
    {
        final DataDictionary fix42 = DataDictionary.standard(FixVersion.FIX42);
        assertSame(fix42, DataDictionary.standard(FixVersion.FIX42));
        assertEquals("FIX.4.2", fix42.beginString());
        assertEquals("FIX.4.4", DataDictionary.standard(FixVersion.FIX44).beginString());
        assertEquals("classpath:/FIX42.xml", fix42.source());

        final FieldDef handlInst = fix42.field(21);
        assertEquals("HandlInst", handlInst.name());
        assertEquals(FieldType.CHAR, handlInst.type());
        assertEquals(Set.of("1", "2", "3"), handlInst.enumValues());
        assertNull(fix42.field(999));
        assertTrue(fix42.isHeaderField(34) && fix42.isHeaderField(52) && !fix42.isHeaderField(55));
        assertTrue(fix42.isTrailerField(10) && fix42.isTrailerField(93));
        assertTrue(fix42.isAdminMsgType("A") && !fix42.isAdminMsgType("D"));
        assertTrue(fix42.isDefinedMsgType("d") && !fix42.isDefinedMsgType("*"));

        final MessageDef order = fix42.message("D");
        assertEquals("NewOrderSingle", order.name());
        assertTrue(order.isRequired(55) && order.isRequired(21) && !order.isRequired(38));
        assertTrue(order.hasField(78) && !order.hasField(79), "group members belong to the group");
        assertEquals(79, order.group(78).delimiterTag());
    }

    @Test
    void nestedGroupsFromComponentsAreExpanded()
    {
        final MessageDef order = DataDictionary.standard(FixVersion.FIX44).message("D");
        final GroupDef parties = order.group(453);
        assertNotNull(parties, "Parties component expanded into the message");
        assertEquals(448, parties.delimiterTag());
        assertArrayEquals(new int[] {448, 447, 452, 802}, parties.memberOrder());
        final GroupDef subIds = parties.group(802);
        assertEquals(523, subIds.delimiterTag());
        assertArrayEquals(new int[] {523, 803}, subIds.memberOrder());
        assertEquals(3, parties.position(802));
        assertEquals(-1, parties.position(55));
    }

    @Test
    void requiredTagsAreCheckedInQuickFixJsOrder()
    {
        // QuickFIX/J's HashSet of the FIX.4.2 header's required tags iterates 49, 34, 35, 52, 8, 56, 9.
        assertArrayEquals(new int[] {49, 34, 35, 52, 8, 56, 9},
            DataDictionary.standard(FixVersion.FIX42).header().requiredInCheckOrder());
    }

    @Test
    void userDictionaryFromAFile(@TempDir final Path dir) throws IOException
    {
        final Path file = dir.resolve("custom.xml");
        Files.writeString(file, CUSTOM);
        final DataDictionary custom = DataDictionary.load(file);
        assertEquals(file.toString(), custom.source());
        assertEquals(2, custom.messages().size());
        assertEquals(600, custom.message("ZQ").group(555).delimiterTag());

        final DictionaryValidator validator = new DictionaryValidator(custom);
        final ValidationFailure failure = new ValidationFailure();
        final String header = "8=FIX.4.2|35=ZQ|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|";
        assertTrue(validator.validate(TestMessages.message(header + "55=X|555=2|600=A|687=1|600=B|6001=O"), failure), failure::toString);
        assertFalse(validator.validate(TestMessages.message(header + "55=X|6001=Z"), failure));
        assertEquals("373=5 371=6001 58=Value is incorrect (out of range) for this tag, field=6001", failure.toString());
        assertFalse(validator.validate(TestMessages.message(header + "55=X|555=1|687=1"), failure));
        assertEquals("The group 555 must set the delimiter field 600", failure.appendText(new StringBuilder()).toString());
        assertFalse(validator.validate(TestMessages.message(header + "555=0"), failure));
        assertEquals("373=1 371=55 58=Required tag missing, field=55", failure.toString());
        assertFalse(validator.validate(TestMessages.message("8=FIX.4.2|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|55=X"), failure));
        assertEquals(SessionRejectReason.INVALID_MSGTYPE, failure.reason());
    }

    @Test
    void malformedDictionariesNameTheFileAndTheProblem(@TempDir final Path dir) throws IOException
    {
        assertLoadFails(dir, "not-xml.xml", "<fix major='4'", "not-xml.xml: not well-formed XML at line 1");
        assertLoadFails(dir, "root.xml", "<fixml/>", "root.xml: the root element is <fixml>");
        assertLoadFails(dir, "undefined.xml", CUSTOM.replace("name='Symbol' required='Y'", "name='Ticker' required='Y'"),
            "undefined.xml: message Quote uses field Ticker, which is not defined in <fields>");
        assertLoadFails(dir, "type.xml", CUSTOM.replace("type='QTY'", "type='QUANTITY'"),
            "type.xml: <field name=\"LegQty\"> has unknown type \"QUANTITY\"");
        assertLoadFails(dir, "component.xml", CUSTOM.replace("<component name='Legs' required='N'/>", "<component name='Lags' required='N'/>"),
            "component.xml: component Lags used in message Quote is not defined in <components>");
        assertLoadFails(dir, "number.xml", CUSTOM.replace("number='687'", "number='x687'"),
            "number.xml: <field name=\"LegQty\"> has number=\"x687\", which is not an integer tag");
        assertLoadFails(dir, "required.xml", CUSTOM.replace("<field name='TestReqID' required='N'/>", "<field name='TestReqID'/>"),
            "required.xml: <field name=\"TestReqID\"> in message Heartbeat has no required attribute");

        final Path missing = dir.resolve("missing.xml");
        final InvalidDictionaryException e = assertThrows(InvalidDictionaryException.class, () -> DataDictionary.load(missing));
        assertEquals(missing + ": no such dictionary file", e.getMessage());
    }

    private static void assertLoadFails(final Path dir, final String name, final String content, final String messageStart)
        throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, content);
        final InvalidDictionaryException e = assertThrows(InvalidDictionaryException.class, () -> DataDictionary.load(file));
        assertTrue(e.getMessage().startsWith(dir.resolve(messageStart).toString()), e.getMessage());
    }
}
