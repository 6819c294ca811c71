package org.fixlab.engine.dictionary;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import quickfix.FieldException;
import quickfix.IncorrectDataFormat;
import quickfix.IncorrectTagValue;
import quickfix.InvalidMessage;
import quickfix.Message;

/**
 * Differential test against QuickFIX/J 2.3.2 itself (a test dependency): thousands of mutated
 * messages - fields dropped, repeated, swapped, emptied, given odd values, unknown tags inserted -
 * must be accepted, dropped as garbled or rejected with the same 373, 371 and 58 by both.
 */
class QuickFixJEquivalenceTest
{
    /** Override with -Ddictionary.fuzz.cases / -Ddictionary.fuzz.seed for a longer hunt. */
    private static final int CASES = Integer.getInteger("dictionary.fuzz.cases", 6000);
    private static final long SEED = Long.getLong("dictionary.fuzz.seed", 42L);
    private static final String TIME = "20240101-12:00:00.000";

    private static final String[] FIX42_BASES = {
        "8=FIX.4.2|35=D|34=2|49=TW|52=" + TIME + "|56=ISLD|11=ID|21=1|40=1|54=1|38=200.00|55=INTC|60=" + TIME,
        "8=FIX.4.2|35=D|34=2|49=TW|52=" + TIME + "|56=ISLD|11=ID|21=1|40=1|54=1|38=200.00|55=INTC|78=2|79=acct1|80=50|79=acct2|80=150|386=1|336=X|60=" + TIME,
        "8=FIX.4.2|35=0|34=2|49=TW|52=" + TIME + "|56=ISLD|112=HI",
        "8=FIX.4.2|35=A|34=1|49=TW|52=" + TIME + "|56=ISLD|98=0|108=30",
        "8=FIX.4.2|35=d|34=2|49=TW|56=ISLD|52=" + TIME + "|320=J|322=1|323=6|55=TBS|22=8|167=OPT|336=ONE|58=txt|393=0|146=1|311=U|312=S|309=X|305=8",
        "8=FIX.4.2|35=8|34=2|49=TW|52=" + TIME + "|56=ISLD|43=Y|122=" + TIME + "|37=id|17=id|20=0|150=0|39=0|55=WLRI|54=1|151=100|14=0|6=0.0",
        "8=FIX.4.2|35=B|34=2|49=TW|52=" + TIME + "|56=ISLD|148=News|33=2|58=line1|354=5|355=a|7=b|58=line2|95=2|96=xy|93=5|89=s|1=x",
    };

    private static final String[] FIX44_BASES = {
        "8=FIX.4.4|35=D|34=2|49=TW|52=" + TIME + "|56=ISLD|11=ID|453=2|448=P1|447=D|452=1|802=2|523=S1|803=1|523=S2|803=2|448=P2|447=D|452=3|21=1|55=INTC|54=1|60=" + TIME + "|38=100|40=1",
        "8=FIX.4.4|35=0|34=2|49=TW|52=" + TIME + "|56=ISLD|627=1|628=H|629=" + TIME + "|630=7",
        "8=FIX.4.4|35=V|34=2|49=TW|52=" + TIME + "|56=ISLD|262=R|263=1|264=0|267=2|269=0|269=1|146=1|55=IBM|48=X|22=1|454=1|455=A|456=1",
        "8=FIX.4.4|35=AE|34=2|49=TW|52=" + TIME + "|56=ISLD|571=T|487=0|570=N|55=X|32=1|31=1.5|75=20240101|60=" + TIME + "|552=1|54=1|37=O|11=C|453=1|448=P|447=D|452=1",
    };

    private static final String[] ODD_VALUES = {
        "", "0", "1", "-1", "+1", "2", "3", "Y", "N", "X", "D", "1.5", ".", "-.5", "5.", "abc", "A B", "0 1", "1 ",
        "99999999999", "2147483647", "2147483648", "-2147483648", "00000000001",
        TIME, "20240101-12:00:00", "20240101-12:00:00.000000", "20240101-12:00:00.0", "20241301-12:00:00", "20240230-12:00:00",
        "20240101-25:00:00", "2024010-12:00:00.000", "12:00:00", "12:00:00.000", "12:60:00", "20240101", "20241301", "2024-01-01",
        "2024A101-12:00:00", "20240101 12:00:00", "20240101-12:00:00.000000000000", "20240101-12:00:00.00x", "12:00:00.000000",
        "1:00:00", "12:00:0x", "1a:00:00", "12:00:00.0001", "2024010A",
    };

    private static final int[] ODD_TAGS = {
        0, -1, 5000, 9999, 999, 10, 93, 89, 34, 49, 52, 56, 43, 97, 122, 115, 627, 628, 1128, 55, 11, 38, 40, 54, 60, 78, 79, 80,
        386, 336, 146, 95, 96, 90, 91, 212, 213, 354, 355, 311, 447, 448, 452, 802, 523, 803, 453, 267, 269, 454, 455, 112, 108, 98, 58, 167, 21,
    };

    @ParameterizedTest
    @EnumSource(FixVersion.class)
    void rejectsExactlyAsQuickFixJ(final FixVersion version) throws Exception
    {
        final quickfix.DataDictionary oracle;
        try (InputStream in = getClass().getResourceAsStream(version == FixVersion.FIX42 ? "/FIX42.xml" : "/FIX44.xml"))
        {
            oracle = new quickfix.DataDictionary(in);
        }
        final DictionaryValidator validator = new DictionaryValidator(DataDictionary.standard(version));
        final ValidationFailure failure = new ValidationFailure();
        final MessageDecoder decoder = new MessageDecoder(1024);
        final String[] bases = version == FixVersion.FIX42 ? FIX42_BASES : FIX44_BASES;
        final Random random = new Random(SEED);
        final List<String> mismatches = new ArrayList<>();
        int rejected = 0;
        for (int c = 0; c < CASES; c++)
        {
            final String script = c < bases.length ? bases[c] : mutate(bases[random.nextInt(bases.length)], random);
            final String framed = TestMessages.frame(script);
            final String expected = quickFixJVerdict(oracle, framed);
            if (expected == null)
            {
                continue; // QuickFIX/J threw something a session would not turn into a reject
            }
            // a data field whose length field is wrong leaves no way to split the rest: the decoder calls it garbled
            final boolean decoded = TestMessages.decodeInto(decoder, framed) == MessageDecoder.OK;
            final boolean valid = decoded && validator.validate(decoder, failure);
            final String actual = !decoded || !valid && failure.isGarbled() ? "garbled" : valid ? "valid" : verdict(failure);
            if (!valid)
            {
                rejected++;
            }
            if (!expected.equals(actual) && mismatches.size() < 25)
            {
                mismatches.add(script + "\n    QuickFIX/J: " + expected + "\n    fixlab:     " + actual);
            }
            if (c < bases.length)
            {
                assertTrue(valid, script + " " + failure);
            }
        }
        assertTrue(mismatches.isEmpty(), () -> mismatches.size() + "+ mismatches:\n" + String.join("\n", mismatches));
        assertTrue(rejected > CASES / 3, "the mutations should produce plenty of rejects, got " + rejected);
    }

    private static String verdict(final ValidationFailure failure)
    {
        return failure.reason() + "/" + failure.refTagId() + "/" + failure.appendText(new StringBuilder());
    }

    private static String quickFixJVerdict(final quickfix.DataDictionary oracle, final String framed)
    {
        final Message message = new Message();
        try
        {
            message.fromString(framed, oracle, true);
        }
        catch (final InvalidMessage e)
        {
            return "garbled";
        }
        try
        {
            oracle.validate(message);
            return "valid";
        }
        catch (final FieldException e)
        {
            return e.getSessionRejectReason() + "/" + e.getField() + "/" + e.getMessage();
        }
        catch (final IncorrectTagValue e)
        {
            return e.getSessionRejectReason() + "/" + e.getField() + "/" + e.getMessage();
        }
        catch (final IncorrectDataFormat e)
        {
            return e.getSessionRejectReason() + "/" + e.getField() + "/" + e.getMessage();
        }
        catch (final Exception e)
        {
            return null;
        }
    }

    /** One to three random edits after the fixed 8=, keeping every field tag=value. */
    private static String mutate(final String base, final Random random)
    {
        final List<String> fields = new ArrayList<>(Arrays.asList(base.split("\\|")));
        final int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++)
        {
            final int i = 2 + random.nextInt(fields.size() - 2); // keep 8= and 35=
            final String field = fields.get(i);
            final String tag = field.substring(0, field.indexOf('='));
            switch (random.nextInt(6))
            {
                case 0:
                    fields.remove(i);
                    break;
                case 1:
                    fields.add(1 + random.nextInt(fields.size()), field);
                    break;
                case 2:
                    if (i + 1 < fields.size())
                    {
                        fields.set(i, fields.get(i + 1));
                        fields.set(i + 1, field);
                    }
                    break;
                case 3:
                    fields.set(i, tag + "=" + ODD_VALUES[random.nextInt(ODD_VALUES.length)]);
                    break;
                case 4:
                    fields.add(2 + random.nextInt(fields.size() - 1),
                        ODD_TAGS[random.nextInt(ODD_TAGS.length)] + "=" + ODD_VALUES[random.nextInt(ODD_VALUES.length)]);
                    break;
                default:
                    fields.add(2 + random.nextInt(fields.size() - 1), ODD_TAGS[random.nextInt(ODD_TAGS.length)] + "=1");
                    break;
            }
        }
        return String.join("|", fields);
    }
}
