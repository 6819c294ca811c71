package org.fixlab.engine.reliability;

import java.util.HashMap;
import java.util.Map;

import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;

/**
 * The initiator's side of an order stream: counts ExecutionReports per ClOrdID ("C0", "C1", ...)
 * and classifies every report after the first for the same order: PossDupFlag(43)=Y (the session
 * layer resent it), PossResend(97)=Y (the application answered a resent order again), or unmarked,
 * which is the failure the reliability tests look for.
 */
final class ReportLedger implements Application
{
    private final Map<String, Integer> reports = new HashMap<>();
    private int total;
    private int repeatsWithPossDup;
    private int repeatsWithPossResend;
    private int unmarkedRepeats;
    private String firstUnmarkedRepeat;

    @Override
    public Action onAppMessage(final Session session, final MessageDecoder report)
    {
        total++;
        if (reports.merge(report.stringValue(11), 1, Integer::sum) == 1)
        {
            return Action.CONTINUE;
        }
        if (report.isFlagSet(Fix.POSS_DUP_FLAG))
        {
            repeatsWithPossDup++;
        }
        else if (report.isFlagSet(Fix.POSS_RESEND))
        {
            repeatsWithPossResend++;
        }
        else if (unmarkedRepeats++ == 0)
        {
            firstUnmarkedRepeat = report.toString();
        }
        return Action.CONTINUE;
    }

    /** NewOrderSingle number n, ClOrdID "C" + n. */
    static MessageEncoder order(final MessageEncoder order, final int n)
    {
        return order.reset('D').append(11, "C" + n).append(21, '1').append(55, "EUR/USD").append(54, '1')
            .appendDecimal(38, 100, 0).append(40, '2').appendDecimal(44, 11_234, 4);
    }

    /** Orders with at least one report. */
    int answered()
    {
        return reports.size();
    }

    int total()
    {
        return total;
    }

    int repeatsWithPossDup()
    {
        return repeatsWithPossDup;
    }

    int repeatsWithPossResend()
    {
        return repeatsWithPossResend;
    }

    int unmarkedRepeats()
    {
        return unmarkedRepeats;
    }

    String firstUnmarkedRepeat()
    {
        return firstUnmarkedRepeat;
    }

    /** Up to ten of the first {@code sent} orders without a report, for failure messages. */
    String unanswered(final int sent)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0, shown = 0; i < sent && shown < 10; i++)
        {
            if (!reports.containsKey("C" + i))
            {
                sb.append('C').append(i).append(' ');
                shown++;
            }
        }
        return sb.toString().trim();
    }
}
