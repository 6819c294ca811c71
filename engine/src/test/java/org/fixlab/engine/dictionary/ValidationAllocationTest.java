package org.fixlab.engine.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.junit.jupiter.api.Test;

/** Validating a valid message must not allocate once warmed up (the session calls it per message). */
class ValidationAllocationTest
{
    private static final int ITERATIONS = 100_000;

    @Test
    void validNewOrderSingleAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());

        final DictionaryValidator fix42 = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX42));
        final DictionaryValidator fix44 = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX44));
        final MessageDecoder order42 = TestMessages.message(
            "8=FIX.4.2|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|11=ID|21=1|40=2|44=10.25|54=1|38=200|55=INTC|" +
            "78=2|79=acct1|80=50|79=acct2|80=150|59=0|60=20240101-12:00:00.000|18=1 G|167=CS");
        final MessageDecoder order44 = TestMessages.message(
            "8=FIX.4.4|35=D|34=2|49=TW|52=20240101-12:00:00.000|56=ISLD|11=ID|" +
            "453=2|448=P1|447=D|452=1|802=2|523=S1|803=1|523=S2|803=2|448=P2|447=D|452=3|" +
            "21=1|55=INTC|54=1|60=20240101-12:00:00.000|38=100|40=1");
        final ValidationFailure failure = new ValidationFailure();

        for (int i = 0; i < 3 * ITERATIONS; i++)
        {
            fix42.validate(order42, failure);
            fix44.validate(order44, failure);
        }
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        int valid = 0;
        for (int i = 0; i < ITERATIONS; i++)
        {
            if (fix42.validate(order42, failure) && fix44.validate(order44, failure))
            {
                valid++;
            }
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertEquals(ITERATIONS, valid, failure::toString);
        assertTrue(allocated < 1024, "allocated " + allocated + " bytes for " + ITERATIONS + " validations");
    }
}
