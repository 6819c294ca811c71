package org.fixlab.engine.reliability;

import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;

/**
 * The child process {@link AcceptorCrashTest} kills: an acceptor with a persistent store that answers
 * every NewOrderSingle with an ExecutionReport carrying the order's ClOrdID. An order that arrives
 * with PossDupFlag=Y may be one this process (or the one killed before it) already answered, so its
 * report carries PossResend(97)=Y, the FIX way of saying "the receiver may have seen this one".
 *
 * <p>Arguments: {@code STORE_TYPE STORE_DIR PORT}. Prints one line {@link #READY} with the session's
 * sequence numbers as read from the store once it listens; a report it could not send is printed to
 * stderr as {@link #REPORT_NOT_SENT} (the test fails on it).
 */
public final class CrashAcceptor
{
    static final String READY = "ready";
    static final String REPORT_NOT_SENT = "REPORT NOT SENT";
    static final SessionId SESSION = new SessionId(FixVersion.FIX44, "EXEC", "CLIENT");

    private CrashAcceptor()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeType", args[0])
            .set("storeDirectory", args[1])
            .set("tcpNoDelay", "true")
            .set("idleStrategy", "backoff");
        final FixEngine engine = new FixEngine(configuration);
        final Session session = engine.addAcceptorSession(SESSION, new ReportingApplication());
        final int port = engine.listen("127.0.0.1", Integer.parseInt(args[2]));
        final String ready = READY + " port=" + port + " nextSender=" + session.nextSenderSeqNum() + " nextTarget=" +
            session.nextTargetSeqNum();
        engine.start();
        System.out.println(ready);
        System.out.flush();
        new CountDownLatch(1).await(); // until SIGKILL
    }

    /** NewOrderSingle in, ExecutionReport out; runs on the engine thread. */
    static final class ReportingApplication implements Application
    {
        private final MessageEncoder report = new MessageEncoder();
        private final Consumer<String> onOrder;
        private long execId;
        private int notSent;

        ReportingApplication()
        {
            this(clOrdId -> { });
        }

        /** @param onOrder told each order's ClOrdID before it is answered. */
        ReportingApplication(final Consumer<String> onOrder)
        {
            this.onOrder = onOrder;
        }

        /** Reports trySend refused. */
        int notSent()
        {
            return notSent;
        }

        @Override
        public Action onAppMessage(final Session session, final MessageDecoder order)
        {
            onOrder.accept(order.stringValue(11));
            final int clOrdId = order.indexOf(11);
            report.reset('8');
            if (order.isFlagSet(Fix.POSS_DUP_FLAG))
            {
                report.appendHeader(Fix.POSS_RESEND, "Y");
            }
            report.append(37, order.buffer(), order.valueOffset(clOrdId), order.valueLength(clOrdId))
                .append(11, order.buffer(), order.valueOffset(clOrdId), order.valueLength(clOrdId))
                .append(17, ++execId).append(150, '0').append(39, '0').append(55, "EUR/USD").append(54, '1')
                .appendDecimal(151, 100, 0).appendDecimal(14, 0, 0).appendDecimal(6, 0, 0);
            final long result = session.trySend(report);
            if (result < 0)
            {
                notSent++;
                System.err.println(REPORT_NOT_SENT + " for ClOrdID " + order.stringValue(11) + ": " + SendResult.describe(result));
            }
            return Action.CONTINUE;
        }
    }
}
