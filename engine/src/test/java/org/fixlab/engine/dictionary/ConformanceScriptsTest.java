package org.fixlab.engine.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.fixlab.engine.codec.FixVersion;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The inbound messages of the FIX.4.2 conformance scripts whose answer depends on dictionary
 * validation, with the 373, 371 and Text(58) each script expects (58 is compared as a prefix by
 * the runner; here against QuickFIX/J's full wording).
 */
class ConformanceScriptsTest
{
    private final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX42));
    private final ValidationFailure failure = new ValidationFailure();

    static Stream<Arguments> rejected()
    {
        return Stream.of(
            Arguments.of("14a tag not in the specification",
                "8=FIX.4.2|35=0|34=2|49=TW|52=<TIME>|56=ISLD|999=HI", 0, 999, "Invalid tag number, field=999"),
            Arguments.of("14a tag 0", "8=FIX.4.2|35=0|34=3|49=TW|52=<TIME>|56=ISLD|0=HI", 0, 0, "Invalid tag number, field=0"),
            Arguments.of("14a negative tag", "8=FIX.4.2|35=0|34=4|49=TW|52=<TIME>|56=ISLD|-1=HI", 0, -1, "Invalid tag number"),
            Arguments.of("14a user-defined tag",
                "8=FIX.4.2|35=0|34=5|49=TW|52=<TIME>|56=ISLD|5000=HI", 0, 5000, "Invalid tag number, field=5000"),
            Arguments.of("14b header TargetCompID missing",
                "8=FIX.4.2|35=0|34=2|49=TW|52=<TIME>", 1, 56, "Required tag missing, field=56"),
            Arguments.of("14b body Symbol missing",
                "8=FIX.4.2|35=D|49=TW|34=3|56=ISLD|52=<TIME>|40=1|60=<TIME>|54=1|21=3|11=id", 1, 55,
                "Required tag missing, field=55"),
            Arguments.of("14c tag of another message type",
                "8=FIX.4.2|35=0|34=2|49=TW|52=<TIME>|56=ISLD|55=MSFT", 2, 55, "Tag not defined for this message type, field=55"),
            Arguments.of("14d empty value", "8=FIX.4.2|35=0|34=2|49=TW|52=<TIME>|56=", 4, 56, "Tag specified without a value, field=56"),
            Arguments.of("14e HandlInst=4",
                "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=ID|21=4|40=1|54=1|38=002000.00|55=INTC|60=<TIME>", 5, 21,
                "Value is incorrect (out of range) for this tag, field=21"),
            Arguments.of("14e SecurityType=BOO",
                "8=FIX.4.2|35=D|34=3|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|38=002000.00|55=INTC|60=<TIME>|167=BOO", 5, 167,
                "Value is incorrect (out of range) for this tag, field=167"),
            Arguments.of("14f OrderQty with a + sign",
                "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|38=+200.00|55=INTC|60=<TIME>", 6, 38,
                "Incorrect data format for value, field=38"),
            Arguments.of("14g all body tags first",
                "8=FIX.4.2|35=D|11=id|21=3|40=1|54=1|55=MSFT|60=<TIME>|34=2|49=TW|52=<TIME>|56=ISLD", 14, 34,
                "Tag specified out of required order, field=34"),
            Arguments.of("14g one body tag first",
                "8=FIX.4.2|35=D|55=MSFT|34=3|49=TW|52=<TIME>|56=ISLD|11=id|21=3|40=1|54=1|60=<TIME>", 14, 34,
                "Tag specified out of required order, field=34"),
            Arguments.of("14h repeated OrdType",
                "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|40=2|38=200.00|55=INTC|60=<TIME>", 13, 40,
                "Tag appears more than once, field=40"),
            Arguments.of("14i NoTradingSessions=3 with two entries",
                "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|38=200.00|55=INTC|386=3|336=PRE-OPEN|336=AFTER-HOURS|60=<TIME>",
                16, 386, "Incorrect NumInGroup count for repeating group, field=386"),
            Arguments.of("14j entry without its delimiter",
                "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|38=200.00|55=INTC|78=2|80=50|79=acct1|80=150|79=acct2|60=<TIME>",
                15, 80, "The group 78 must set the delimiter field 79"),
            Arguments.of("2q unknown MsgType", "8=FIX.4.2|35=*|34=2|49=TW|52=<TIME>|56=ISLD", 11, 35, "Invalid MsgType, field=35"),
            // QFJ650: the session answers this with a Logout before validating; the dictionary alone says:
            Arguments.of("QFJ650 MsgSeqNum missing", "8=FIX.4.2|35=1|49=TW|52=<TIME>|56=ISLD|112=TEST", 1, 34,
                "Required tag missing, field=34"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejectsLikeTheScriptExpects(final String name, final String inbound, final int reason, final int refTagId, final String text)
    {
        assertFalse(validator.validate(TestMessages.message(inbound), failure), name);
        assertFalse(failure.isGarbled());
        assertEquals(reason, failure.reason(), failure.toString());
        assertEquals(refTagId, failure.refTagId(), failure.toString());
        assertTrue(failure.hasRefTagId(), "371 is sent");
        assertEquals(text, failure.appendText(new StringBuilder()).toString());
        assertTrue(text.startsWith(failure.text()));
    }

    static Stream<Arguments> accepted()
    {
        return Stream.of(
            Arguments.of("14e SecurityType=FUT",
                "8=FIX.4.2|35=D|34=4|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|38=002000.00|55=INTC|60=<TIME>|167=FUT"),
            Arguments.of("15 usual order", "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=id|21=3|40=1|54=1|55=MSFT|60=<TIME>"),
            Arguments.of("15 header and body reordered",
                "8=FIX.4.2|35=D|49=TW|34=3|56=ISLD|52=<TIME>|40=1|55=MSFT|60=<TIME>|54=1|21=3|11=id"),
            Arguments.of("21 NumInGroup of zero",
                "8=FIX.4.2|35=d|34=2|49=TW|56=ISLD|52=<TIME>|320=JCD1091-20021011|322=1034356488676|323=6|55=TBS|22=8|167=OPT|336=ONE_MAIN|58=No Products found for this Class Symbol|393=0|146=0"),
            Arguments.of("2r ExecutionReport (the application rejects it, not the dictionary)",
                "8=FIX.4.2|35=8|34=2|49=TW|52=<TIME>|56=ISLD|37=id|17=id|20=0|150=0|39=0|55=WLRI|54=1|151=100|14=0|6=0.0"),
            Arguments.of("MinQty42", "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=id|21=3|38=100|40=1|60=<TIME>|54=1|55=MSFT|110=9"),
            Arguments.of("QFJ648 negative HeartBtInt (the session refuses it)",
                "8=FIX.4.2|35=A|34=1|49=TW|52=<TIME>|56=ISLD|98=0|108=-10"),
            Arguments.of("Logon", "8=FIX.4.2|35=A|34=1|49=TW|52=<TIME>|56=ISLD|98=0|108=2"),
            Arguments.of("14j two well-formed entries",
                "8=FIX.4.2|35=D|34=2|49=TW|52=<TIME>|56=ISLD|11=ID|21=1|40=1|54=1|38=200.00|55=INTC|78=2|79=acct1|80=50|79=acct2|80=150|60=<TIME>"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void acceptsWhatTheScriptsAccept(final String name, final String inbound)
    {
        assertTrue(validator.validate(TestMessages.message(inbound), failure), () -> name + ": " + failure);
    }
}
