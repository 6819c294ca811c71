package org.fixlab.engine.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DictionaryValidatorTest
{
    private static final String FIX44_HEADER = "8=FIX.4.4|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|";
    private static final String FIX44_ORDER_TAIL = "|21=1|55=INTC|54=1|60=20240101-12:00:00.000|38=100|40=1";
    private static final String PARTIES = "453=2|448=P1|447=D|452=1|802=2|523=S1|803=1|523=S2|803=2|448=P2|447=D|452=3";

    private final ValidationFailure failure = new ValidationFailure();

    @Test
    void nestedGroupsFix44()
    {
        final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX44));
        assertTrue(validate(validator, FIX44_HEADER + "11=ID|" + PARTIES + FIX44_ORDER_TAIL), failure::toString);

        assertRejected(validator, FIX44_HEADER + "11=ID|" + PARTIES.replace("802=2", "802=3") + FIX44_ORDER_TAIL,
            "373=16 371=802 58=Incorrect NumInGroup count for repeating group, field=802");
        assertRejected(validator, FIX44_HEADER + "11=ID|" + PARTIES.replace("523=S1|803=1", "803=1|523=S1") + FIX44_ORDER_TAIL,
            "373=15 371=803 58=The group 802 must set the delimiter field 523");
        assertRejected(validator, FIX44_HEADER + "11=ID|" + PARTIES.replace("448=P1|447=D", "447=D|448=P1") + FIX44_ORDER_TAIL,
            "373=15 371=447 58=The group 453 must set the delimiter field 448");
        assertRejected(validator, FIX44_HEADER + "11=ID|" + PARTIES.replace("448=P2|447=D|452=3", "448=P2|452=3|447=D") + FIX44_ORDER_TAIL,
            "373=15 371=447 58=Out of order repeating group members, field=447");
        assertRejected(validator, FIX44_HEADER + "11=ID|" + PARTIES.replace("803=2", "803=") + FIX44_ORDER_TAIL,
            "373=4 371=803 58=Tag specified without a value, field=803");
        assertRejected(validator, FIX44_HEADER + "11=ID|" + PARTIES.replace("447=D|452=3", "447=?|452=3") + FIX44_ORDER_TAIL,
            "373=5 371=447 58=Value is incorrect (out of range) for this tag, field=447");
    }

    @ParameterizedTest(name = "{0}={1} valid={2}")
    @CsvSource(delimiter = ';', value = {
        // INT (HeartBtInt 108 in a Logon)
        "108;30;true", "108;-5;true", "108;007;true", "108;+5;false", "108;3.0;false", "108;2147483648;false", "108;-;false",
        // PRICE/QTY (38 OrderQty)
        "38;200;true", "38;-0.5;true", "38;.5;true", "38;5.;true", "38;+200.00;false", "38;1e5;false", "38;.;false", "38;1.2.3;false",
        // CHAR (54 Side: enum too)
        "54;1;true", "54;11;false",
        // BOOLEAN (43 PossDupFlag)
        "43;Y;true", "43;N;true", "43;y;false", "43;YES;false",
        // UTCTimestamp (60 TransactTime): shape only, like QuickFIX/J
        "60;20240101-12:00:00;true", "60;20240101-12:00:00.123;true", "60;20240101-12:00:00.123456789;true",
        "60;20241301-25:00:00;true", "60;20240101-12:00:00.1;false", "60;2024-01-01T12:00:00;false", "60;20240101-12:00;false",
        // UTCDate (FIX.4.2 432 ExpireDate is LOCALMKTDATE: free text; 272 MDEntryDate would be UTCDATE)
        "432;whenever;true",
    })
    void dataFormatsFix42(final int tag, final String value, final boolean valid)
    {
        final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX42));
        final String message = tag == 108 ?
            "8=FIX.4.2|35=A|34=1|49=TW|52=20240101-12:00:00.000|56=ISLD|98=0|108=" + value :
            tag == 43 ?
            "8=FIX.4.2|35=D|34=2|43=" + value + "|49=TW|52=20240101-12:00:00.000|56=ISLD|122=20240101-12:00:00.000|11=ID|21=1|40=1|54=1|55=X|60=20240101-12:00:00.000" :
            "8=FIX.4.2|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|11=ID|21=1|40=1|55=X|" +
                (tag == 54 ? "" : "54=1|") + (tag == 60 ? "" : "60=20240101-12:00:00.000|") + tag + "=" + value;
        assertEquals(valid, validate(validator, message), failure::toString);
        if (!valid)
        {
            assertEquals(tag, failure.refTagId());
            assertTrue(failure.reason() == SessionRejectReason.INCORRECT_DATA_FORMAT_FOR_VALUE ||
                failure.reason() == SessionRejectReason.VALUE_IS_INCORRECT, failure::toString);
        }
    }

    @Test
    void timeAndDateFormats()
    {
        assertTrue(valid(FieldType.UTCTIMEONLY, "12:00:00") && valid(FieldType.UTCTIMEONLY, "12:00:00.123"));
        assertFalse(valid(FieldType.UTCTIMEONLY, "12:00") || valid(FieldType.UTCTIMEONLY, "12-00-00"));
        assertTrue(valid(FieldType.UTCDATE, "20240131") && valid(FieldType.UTCDATE, "20241399"));
        assertFalse(valid(FieldType.UTCDATE, "2024-01-31") || valid(FieldType.UTCDATE, "2024013"));
        assertTrue(valid(FieldType.UTCDATEONLY, "anything"), "QuickFIX/J does not check UTCDATEONLY");
        assertTrue(valid(FieldType.STRING, ""));
    }

    @Test
    void multipleValueStringsCheckEachItem()
    {
        final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX42));
        final String order = "8=FIX.4.2|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|11=ID|21=1|40=1|54=1|55=X|60=20240101-12:00:00.000|18=";
        assertTrue(validate(validator, order + "1 2 G"), failure::toString);
        assertRejected(validator, order + "1 @", "373=5 371=18 58=Value is incorrect (out of range) for this tag, field=18");
        assertRejected(validator, order + "1  2", "373=5 371=18 58=Value is incorrect (out of range) for this tag, field=18");
    }

    @Test
    void optionsRelaxTheirChecks()
    {
        final DataDictionary fix42 = DataDictionary.standard(FixVersion.FIX42);
        final String header = "8=FIX.4.2|35=0|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|";

        assertRejected(new DictionaryValidator(fix42), header + "5001=x", "373=0 371=5001 58=Invalid tag number, field=5001");
        assertTrue(validate(new DictionaryValidator(fix42, new ValidationOptions().validateUserDefinedFields(false)), header + "5001=x"));

        assertTrue(validate(new DictionaryValidator(fix42, new ValidationOptions().allowUnknownMessageFields(true)), header + "55=X"));
        assertTrue(validate(new DictionaryValidator(fix42, new ValidationOptions().validateFieldsHaveValues(false)), header + "112="));

        final String bodyFirst = "8=FIX.4.2|35=D|11=id|21=3|40=1|54=1|55=MSFT|60=20240101-12:00:00.000|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD";
        assertTrue(validate(new DictionaryValidator(fix42, new ValidationOptions().validateFieldsOutOfOrder(false)), bodyFirst));

        final String swapped = "8=FIX.4.2|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|11=ID|21=1|40=1|54=1|55=X|78=1|79=a|80=5|80=6|60=20240101-12:00:00.000";
        assertRejected(new DictionaryValidator(fix42), swapped, "373=15 371=80 58=Out of order repeating group members, field=80");
        assertTrue(validate(new DictionaryValidator(fix42, new ValidationOptions().validateUnorderedGroupFields(false)), swapped));
    }

    @Test
    void garbledMessagesAreReportedAsSuch()
    {
        final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX42));
        assertFalse(validate(validator, "8=FIX.4.2|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|11=ID|21=1|40=1|54=1|55=X|78=two|60=20240101-12:00:00.000"));
        assertTrue(failure.isGarbled(), failure::toString);
        assertFalse(validate(validator, "8=FIX.4.2|34=2|35=0|49=TW|52=20240101-12:00:00.000|56=ISLD"));
        assertTrue(failure.isGarbled(), "MsgType must be the third field");
        assertFalse(validate(validator, "8=FIX.4.2|35=0|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|12345678901=x"));
        assertTrue(failure.isGarbled(), "a tag beyond int range cannot be parsed");
    }

    @Test
    void dataFieldsMayHoldSoh()
    {
        final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX44));
        assertTrue(validate(validator, FIX44_HEADER + "212=5|213=<a|b>|11=ID" + FIX44_ORDER_TAIL), failure::toString);
        assertRejected(validator, FIX44_HEADER + "212=5|213=<a|b>|11=ID|95=3|96=x|y" + FIX44_ORDER_TAIL,
            "373=2 371=95 58=Tag not defined for this message type, field=95");
    }

    private boolean validate(final DictionaryValidator validator, final String script)
    {
        return validator.validate(TestMessages.message(script), failure);
    }

    private void assertRejected(final DictionaryValidator validator, final String script, final String expected)
    {
        assertFalse(validate(validator, script), script);
        assertEquals(expected, failure.toString());
    }

    private static boolean valid(final FieldType type, final String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        return FieldFormats.isValid(type.format(), new UnsafeBuffer(bytes), 0, bytes.length);
    }
}
