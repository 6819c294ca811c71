package org.fixlab.engine.reliability;

import java.io.PrintStream;

import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;

/**
 * The child process {@link InitiatorCrashTest} kills: an initiator with a persistent store that
 * streams NewOrderSingles (ClOrdID {@code R<run>-<n>}) to the test's acceptor and takes its
 * ExecutionReports, driving the engine from its main thread.
 *
 * <p>Arguments: {@code STORE_TYPE STORE_DIR PORT RUN [drain]}; with {@code drain} it sends no new
 * orders (the test's last run, which lets the resends finish). Standard output, one line each,
 * flushed before the next step so that a SIGKILL loses no line about something that happened:
 * <ul>
 * <li>{@code ready nextSender=N nextTarget=M}: the sequence numbers as read from the store;</li>
 * <li>{@code sent ID}: trySend accepted the order (it is stored, whatever happens next);</li>
 * <li>{@code report ID FLAGS}: an ExecutionReport reached the application; FLAGS is {@code -},
 * {@code possdup} or {@code possresend}.</li>
 * </ul>
 */
public final class CrashInitiator
{
    static final SessionId SESSION = new SessionId(FixVersion.FIX44, "CLIENT", "EXEC");
    private static final int MAX_IN_FLIGHT = 100;

    private CrashInitiator()
    {
    }

    public static void main(final String[] args)
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeType", args[0])
            .set("storeDirectory", args[1])
            .set("tcpNoDelay", "true")
            .set("reconnectIntervalMs", "20")
            .set("reconnectMaxIntervalMs", "200");
        final int port = Integer.parseInt(args[2]);
        final String run = args[3];
        final boolean drain = args.length > 4 && args[4].equals("drain");
        final PrintStream out = System.out;
        final int[] reports = {0};
        final FixEngine engine = new FixEngine(configuration);
        final Session session = engine.addInitiatorSession(SESSION, "127.0.0.1", port, new Application()
        {
            @Override
            public Action onAppMessage(final Session session, final MessageDecoder report)
            {
                reports[0]++;
                out.println("report " + report.stringValue(11) + " " + (report.isFlagSet(Fix.POSS_DUP_FLAG) ? "possdup" :
                    report.isFlagSet(Fix.POSS_RESEND) ? "possresend" : "-"));
                out.flush();
                return Action.CONTINUE;
            }
        });
        out.println("ready nextSender=" + session.nextSenderSeqNum() + " nextTarget=" + session.nextTargetSeqNum());
        out.flush();
        final MessageEncoder order = new MessageEncoder();
        int sent = 0;
        while (true) // until SIGKILL
        {
            if (!drain && session.isLoggedOn() && sent - reports[0] < MAX_IN_FLIGHT &&
                session.trySend(order.reset('D').append(11, "R" + run + "-" + sent).append(21, '1')
                    .append(55, "EUR/USD").append(54, '1').appendDecimal(38, 100, 0).append(40, '2')) > 0)
            {
                out.println("sent R" + run + "-" + sent);
                out.flush();
                sent++;
            }
            if (engine.poll() == 0)
            {
                Thread.onSpinWait();
            }
        }
    }
}
