package org.fixlab.engine.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixFrame;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.store.MessageStore;
import org.fixlab.engine.store.MessageStores;
import org.fixlab.engine.store.StoreOptions;
import org.fixlab.engine.store.StoreType;

/**
 * Messages per second a session resends from each store when a peer asks for its whole history
 * (100,000 messages by default): store replay, re-framing with PossDupFlag and OrigSendingTime, one
 * chunk of {@code resendChunkMessages} per duty cycle. A main, not a test, and not run by the build:
 * <pre>
 *   java -cp engine/target/test-classes:engine/target/classes:$(cat engine/target/test-classpath.txt) \
 *       org.fixlab.engine.session.ResendThroughputBenchmark [messages] [runs]
 * </pre>
 * The session writes into an outbound buffer that is emptied at the end of each duty cycle, as a
 * socket that always keeps up would: the figure is the engine's, not the network's. Each duty cycle
 * also sends one new order, to show that new messages keep flowing while the resend runs.
 */
public final class ResendThroughputBenchmark
{
    private static final int WARM_UP_RUNS = 2;
    private static final int OUTBOUND_BUFFER_BYTES = 1 << 20;

    /** What one resend did. */
    public record Result(StoreType store, int messages, long nanos, int resent, int newMessagesSent, int dutyCycles)
    {
        public double messagesPerSecond()
        {
            return resent * 1e9 / nanos;
        }
    }

    private ResendThroughputBenchmark()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final int messages = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        final int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        final Path dir = Files.createTempDirectory("resend-throughput");
        try
        {
            for (final StoreType type : StoreType.values())
            {
                final double[] rates = new double[runs];
                Result last = null;
                for (int run = -WARM_UP_RUNS; run < runs; run++)
                {
                    last = measure(type, dir, messages);
                    if (run >= 0)
                    {
                        rates[run] = last.messagesPerSecond();
                    }
                }
                Arrays.sort(rates);
                System.out.printf("%-7s %,12.0f messages/s resent (median of %d resends of %,d; min %,.0f, max %,.0f); " +
                    "%,d new messages sent in %,d duty cycles meanwhile%n", type, rates[runs / 2], runs, messages, rates[0],
                    rates[runs - 1], last.newMessagesSent(), last.dutyCycles());
            }
        }
        finally
        {
            deleteAll(dir);
        }
    }

    /** Stores {@code messages} orders, then times their resend after one ResendRequest 1..0. */
    public static Result measure(final StoreType type, final Path dir, final int messages)
    {
        final StoreOptions options = new StoreOptions().indexCapacity(Integer.highestOneBit(Math.max(messages, 1024)) << 1);
        try (MessageStore store = MessageStores.open(type, dir, "RESEND-" + type, options))
        {
            store.reset();
            final CachedNanoClock clock = new CachedNanoClock();
            clock.update(System.currentTimeMillis() * 1_000_000L);
            final Counterparty peer = new Counterparty(FixVersion.FIX44, "PEER", "US", clock);
            final Session session = new Session(new SessionId(FixVersion.FIX44, "US", "PEER"), SessionRole.ACCEPTOR,
                new SessionSettings(), store, (s, message) -> Action.CONTINUE, clock::nanoTime, SessionLog.SILENT, 64);
            final CountingTransport transport = new CountingTransport();
            session.onConnect(transport, clock.nanoTime());
            deliver(session, peer.logon(1, 30).frame(), clock);
            final MessageEncoder order = new MessageEncoder();
            for (int i = 0; i < messages; i++)
            {
                order.reset('D').append(11, i).append(21, '1').append(55, "EUR/USD").append(54, '1')
                    .appendDecimal(38, 100, 0).append(40, '2').appendDecimal(44, 11_234, 4);
                while (session.trySend(order) < 0)
                {
                    transport.drain();
                }
            }
            transport.drain();
            transport.counting = true;
            final int seqNumsToResend = session.nextSenderSeqNum() - 1; // the Logon goes as a GapFill
            final MessageEncoder fresh = new MessageEncoder();
            int newMessages = 0;
            int cycles = 0;

            final long start = System.nanoTime();
            deliver(session, peer.message(MsgTypes.RESEND_REQUEST, 2).field(Fix.BEGIN_SEQ_NO, 1).field(Fix.END_SEQ_NO, 0).frame(),
                clock);
            while (transport.resentSeqNums < seqNumsToResend)
            {
                fresh.reset('D').append(11, "NEW").append(55, "EUR/USD").append(54, '1');
                if (session.trySend(fresh) > 0)
                {
                    newMessages++;
                }
                session.doWork(clock.nanoTime());
                transport.drain();
                if (++cycles > seqNumsToResend + 1_000)
                {
                    throw new IllegalStateException(type + ": the resend stalled at " + transport.resentSeqNums + " of " +
                        seqNumsToResend);
                }
            }
            final long nanos = System.nanoTime() - start;
            session.disconnect("benchmark done");
            return new Result(type, messages, nanos, transport.resentSeqNums, newMessages, cycles);
        }
    }

    private static void deliver(final Session session, final String frame, final CachedNanoClock clock)
    {
        final UnsafeBuffer buffer = FixFrame.buffer(frame);
        if (!session.onMessage(buffer, 0, buffer.capacity(), clock.nanoTime()))
        {
            throw new IllegalStateException("the session refused " + FixFrame.pipes(frame));
        }
    }

    /**
     * An outbound buffer emptied by {@link #drain}, counting the MsgSeqNums that resent messages and
     * GapFills cover (read from the bytes: PossDupFlag, MsgType, NewSeqNo). Counting costs a scan of each
     * committed message's header, the same for every store.
     */
    private static final class CountingTransport implements SessionTransport
    {
        private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(OUTBOUND_BUFFER_BYTES));
        private final org.fixlab.engine.codec.MessageDecoder decoder = new org.fixlab.engine.codec.MessageDecoder(64);
        private int used;
        boolean counting;
        int resentSeqNums;

        void drain()
        {
            used = 0;
        }

        @Override
        public boolean hasRoom(final int length)
        {
            return used + length <= buffer.capacity();
        }

        @Override
        public int claim(final int length)
        {
            return hasRoom(length) ? used : BACK_PRESSURED;
        }

        @Override
        public void commit(final int offset, final int length)
        {
            used = offset + length;
            if (counting && decoder.decode(buffer, offset, length) == org.fixlab.engine.codec.MessageDecoder.OK &&
                decoder.isFlagSet(Fix.POSS_DUP_FLAG))
            {
                final int seqNum = decoder.intValue(Fix.MSG_SEQ_NUM, 0);
                resentSeqNums += decoder.msgTypeChar() == MsgTypes.SEQUENCE_RESET ?
                    decoder.intValue(Fix.NEW_SEQ_NO, seqNum + 1) - seqNum : 1;
            }
        }

        @Override
        public MutableDirectBuffer outboundBuffer()
        {
            return buffer;
        }

        @Override
        public void disconnect(final String reason)
        {
        }

        @Override
        public boolean isOpen()
        {
            return true;
        }

        @Override
        public long readNanos()
        {
            return 0;
        }

        @Override
        public long writeNanos()
        {
            return 0;
        }
    }

    private static void deleteAll(final Path dir) throws IOException
    {
        try (var paths = Files.walk(dir))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.delete(path);
            }
        }
    }
}
