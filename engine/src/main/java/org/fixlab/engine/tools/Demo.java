package org.fixlab.engine.tools;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.Action;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.SendResult;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;

/**
 * A first look at the engine: an acceptor and an initiator on loopback, both polled from this one
 * thread, exchanging NewOrderSingle and ExecutionReport; prints one summary line. Not a benchmark
 * (the bench-runner measures properly), just proof that the pieces work together.
 */
public final class Demo
{
    private Demo()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Arguments arguments = Arguments.parse(args, "Demo [--orders N] [--preset balanced|optimized]");
        final int orders = arguments.intValue("orders", 50_000);
        final Preset preset = Preset.of(arguments.value("preset", "balanced"));
        final Path storeDir = Files.createTempDirectory("fixlab-demo");
        final EngineConfiguration configuration = EngineConfiguration.preset(preset)
            .set("storeDirectory", storeDir.toString())
            .set("idleStrategy", "busy-spin")
            .set("cpuAffinity", "false");

        final long[] rtt = new long[orders];
        final long[] sentAt = new long[orders];
        final int[] received = {0};
        final MessageEncoder report = new MessageEncoder();
        final Application acceptorApp = (session, order) ->
        {
            report.reset('8')
                .append(37, order.stringValue(11))
                .append(11, order.buffer(), order.valueOffset(order.indexOf(11)), order.valueLength(order.indexOf(11)))
                .append(17, session.nextSenderSeqNum())
                .append(150, '0').append(39, '0').append(55, "EUR/USD").append(54, '1')
                .appendDecimal(151, 100, 0).appendDecimal(14, 0, 0).appendDecimal(6, 0, 0)
                .appendTimestamp(60, System.currentTimeMillis() * 1_000_000L, TimestampPrecision.MILLIS);
            // a full outbound buffer: the order comes again on a later duty cycle, answered then
            return session.trySend(report) == SendResult.BACK_PRESSURED ? Action.ABORT : Action.CONTINUE;
        };
        final Application initiatorApp = new Application()
        {
            @Override
            public Action onAppMessage(final Session session, final MessageDecoder message)
            {
                final int i = (int)message.longValue(11, -1);
                if (i >= 0 && i < orders)
                {
                    rtt[i] = System.nanoTime() - sentAt[i];
                    received[0]++;
                }
                return Action.CONTINUE;
            }
        };

        try (FixEngine acceptor = new FixEngine(configuration, new org.agrona.concurrent.OffsetEpochNanoClock(), SessionLog.SILENT);
            FixEngine initiator = new FixEngine(configuration, new org.agrona.concurrent.OffsetEpochNanoClock(), SessionLog.SILENT))
        {
            acceptor.addAcceptorSession(new SessionId(FixVersion.FIX44, "EXEC", "CLIENT"), acceptorApp, s -> s.resetOnLogon(true));
            final int port = acceptor.listen("127.0.0.1", 0);
            final Session client = initiator.addInitiatorSession(new SessionId(FixVersion.FIX44, "CLIENT", "EXEC"),
                "127.0.0.1", port, initiatorApp, s -> s.sendResetSeqNumFlag(true));
            final long logonDeadline = System.nanoTime() + 10_000_000_000L;
            while (!client.isLoggedOn() && System.nanoTime() < logonDeadline)
            {
                initiator.poll();
                acceptor.poll();
            }
            if (!client.isLoggedOn())
            {
                throw new IllegalStateException("demo: no logon within 10 s");
            }
            final MessageEncoder order = new MessageEncoder();
            final long start = System.nanoTime();
            for (int i = 0; i < orders; i++)
            {
                order.reset('D').append(11, i).append(21, '1').append(55, "EUR/USD").append(54, '1')
                    .appendTimestamp(60, System.currentTimeMillis() * 1_000_000L, TimestampPrecision.MILLIS)
                    .appendDecimal(38, 100, 0).append(40, '2').appendDecimal(44, 11_234, 4);
                sentAt[i] = System.nanoTime();
                while (client.trySend(order) < 0)
                {
                    initiator.poll();
                    acceptor.poll();
                }
                // closed loop: wait for this order's report before the next one
                while (received[0] <= i)
                {
                    initiator.poll();
                    acceptor.poll();
                }
            }
            final double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(rtt);
            System.out.printf("demo: %,d orders -> %,d execution reports over loopback in %.2f s (%s preset, one thread): " +
                "round trip p50 %.1f us, p99 %.1f us%n", orders, received[0], seconds, preset.name().toLowerCase(),
                rtt[orders / 2] / 1e3, rtt[(int)(orders * 0.99)] / 1e3);
        }
    }
}
