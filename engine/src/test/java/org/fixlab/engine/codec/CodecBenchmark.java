package org.fixlab.engine.codec;

import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The codec's share of one message on each side of the throughput stream, single-threaded and without
 * sockets: the sender builds the benchmark's order and frames it (header, BodyLength, SendingTime, CheckSum),
 * the receiver splits it into fields. Run with {@code make jmh}; JMH reports ns per message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class CodecBenchmark
{
    /** 2025-11-21, in epoch nanoseconds. */
    public static final long NOW = 1_763_700_000_000_000_000L;

    private final MessageEncoder order = new MessageEncoder();
    private final MessageWriter writer = new MessageWriter(FixVersion.FIX42, "CLIENT", "SERVER", TimestampPrecision.MILLIS);
    /** Direct, as a connection's inbound and outbound buffers are: copies from the heap into one cost more. */
    private final UnsafeBuffer out = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
    private final MessageDecoder decoder = new MessageDecoder(64);
    private int seqNum;
    private long now = NOW;
    private int framedLength;
    /**
     * Orders framed back to back, as a connection's inbound buffer holds them after a read of the stream (256 KiB,
     * balanced's inboundBufferSize), each with its own MsgSeqNum, ClOrdID and SendingTime, and room after the last,
     * as a connection's buffer has.
     */
    private final FramedStream stream = new FramedStream();

    static final int STREAM_BYTES = 256 * 1024;

    /**
     * Orders of a mixed flow, framed back to back as {@link #stream}'s: each of ten symbols, six quantities and a price
     * from 1.00 to 999.99 drawn at random (seeded), so three fields change length from order to order, as they do
     * between instruments. The split predicts where a value ends from the lengths it saw before (see
     * MessageDecoder.nextSoh); here it guesses wrong on those three, which {@link #decodeStreamOrder} never shows.
     */
    private final FramedStream mixed = new FramedStream();
    private static final String[] SYMBOLS = {"F", "GE", "IBM", "AAPL", "MSFT", "GOOGL", "BRK.B", "T", "KO", "NVDA"};
    private static final int[] QUANTITIES = {100, 200, 500, 1_000, 2_500, 10_000};

    /** The round trip's order (the larger one, with a price), split, that {@link #encodeAndFrameExecutionReport} answers. */
    private final MessageDecoder roundTripOrder = new MessageDecoder(64);
    private final MessageEncoder report = new MessageEncoder();
    private final MessageWriter serverWriter = new MessageWriter(FixVersion.FIX42, "SERVER", "CLIENT", TimestampPrecision.MILLIS);
    private int execId;
    /** The ExecutionReport the round trip's client splits, framed once; with room after it, as a connection's buffer has. */
    private final UnsafeBuffer framedReport = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
    private int reportLength;
    /** The order's fields an ExecutionReport repeats, in the bench server's order. */
    private static final int[] ECHOED = {11, 109, 55, 54, 38, 44, 60};
    /** bench-runner's Orders.TRANSACT_TIME: what its clients write in every round-trip order. */
    private static final byte[] TRANSACT_TIME = "20261120-23:30:00.123".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * Frames the order {@link #decodeOrder} splits, the {@link #stream} of them {@link #decodeStreamOrder} splits, the
     * {@link #mixed} orders {@link #decodeMixedOrder} splits, and the ExecutionReport {@link #decodeExecutionReport}
     * splits.
     */
    @Setup
    public void frameOrders()
    {
        final UnsafeBuffer roundTrip = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
        roundTripOrder.decode(roundTrip, 0, frameRoundTripOrder(new MessageEncoder(), writer, roundTrip, 1_234_567, NOW));
        reportLength = encodeAndFrameExecutionReport();
        framedReport.putBytes(0, out, 0, reportLength);
        framedLength = encodeAndFrameOrder();
        final MessageEncoder streamOrder = new MessageEncoder();
        final MessageWriter streamWriter = new MessageWriter(FixVersion.FIX42, "CLIENT", "SERVER", TimestampPrecision.MILLIS);
        stream.fill((n, framed) -> frameOrder(streamOrder, streamWriter, framed, n, NOW + n * 1_000L));
        final java.util.SplittableRandom random = new java.util.SplittableRandom(20261128);
        mixed.fill((n, framed) ->
        {
            streamOrder.reset('D').append(11, n).append(21, '1').append(55, SYMBOLS[random.nextInt(SYMBOLS.length)])
                .append(54, random.nextBoolean() ? '1' : '2').appendTimestamp(60, NOW + n * 1_000L, TimestampPrecision.MILLIS)
                .append(38, QUANTITIES[random.nextInt(QUANTITIES.length)]).append(40, '2')
                .appendDecimal(44, 100 + random.nextInt(99_900), 2);
            return frame(streamOrder, streamWriter, framed, n, NOW + n * 1_000L);
        });
    }

    /** Frames one message of a stream (its MsgSeqNum {@code n}) at the start of {@code framed}; returns its length. */
    private interface StreamFramer
    {
        int frame(int n, UnsafeBuffer framed);
    }

    /** {@link #STREAM_BYTES} of messages framed back to back, with room after the last, split one after the other in turn. */
    private static final class FramedStream
    {
        private final UnsafeBuffer bytes = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(STREAM_BYTES + 64));
        private final int[] offsets = new int[STREAM_BYTES / 64];
        private final int[] lengths = new int[STREAM_BYTES / 64];
        private int count;
        private int next;

        /** Frames messages back to back until the next would not fit. */
        void fill(final StreamFramer framer)
        {
            final UnsafeBuffer framed = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
            // numbers of the size a stream of a few million orders reaches
            for (int at = 0, n = 3_000_000; ; n++)
            {
                final int length = framer.frame(n, framed);
                if (at + length > STREAM_BYTES)
                {
                    return;
                }
                bytes.putBytes(at, framed, 0, length);
                offsets[count] = at;
                lengths[count++] = length;
                at += length;
            }
        }

        /** Splits the next message, the first again after the last. */
        int decodeNext(final MessageDecoder decoder)
        {
            final int i = next;
            next = i + 1 == count ? 0 : i + 1;
            return decoder.decode(bytes, offsets[i], lengths[i]) + decoder.fieldCount();
        }
    }

    /**
     * The stream's order built and framed, 1 us apart, so SendingTime moves. Its fields are those bench-runner's fixlab
     * client sends, with TransactTime formatted from the clock as a production client stamps it; the client itself writes
     * a constant there, as every product's client does (see {@link #encodeAndFrameRoundTripOrder}).
     */
    @Benchmark
    public int encodeAndFrameOrder()
    {
        now += 1_000;
        return frameOrder(order, writer, out, ++seqNum, now);
    }

    /**
     * Builds the stream's order in {@code order} and frames it at the start of {@code out}, as the session does;
     * returns its length.
     */
    public static int frameOrder(final MessageEncoder order, final MessageWriter writer, final UnsafeBuffer out,
        final int seqNum, final long now)
    {
        order.reset('D').append(11, seqNum).append(21, '1').append(55, "X").append(54, '1')
            .appendTimestamp(60, now, TimestampPrecision.SECONDS).append(40, '1');
        return frame(order, writer, out, seqNum, now);
    }

    /**
     * The round trip's order as bench-runner's fixlab client sends it, built and framed: two text fields, a price and
     * TransactTime as a constant of bytes, the one bench-runner's clients all write (Orders.TRANSACT_TIME).
     */
    @Benchmark
    public int encodeAndFrameRoundTripOrder()
    {
        now += 1_000;
        return frameRoundTripOrder(order, writer, out, ++seqNum, now);
    }

    private static int frameRoundTripOrder(final MessageEncoder order, final MessageWriter writer, final UnsafeBuffer out,
        final int seqNum, final long now)
    {
        order.reset('D').append(11, seqNum).append(21, '1').append(109, "CLIENT1").append(55, "EUR/USD").append(54, '1')
            .append(60, TRANSACT_TIME).append(38, 100).append(40, '2').appendDecimal(44, 11_234, 4);
        return frame(order, writer, out, seqNum, now);
    }

    /**
     * The round trip's answer, as bench-runner's fixlab server builds it: an ExecutionReport that repeats seven fields
     * of the split order (copied from its buffer), framed. The server's share of a round trip besides the split.
     */
    @Benchmark
    public int encodeAndFrameExecutionReport()
    {
        now += 1_000;
        report.reset('8').append(37, ++execId).append(17, execId).append(20, '0');
        for (final int tag : ECHOED)
        {
            final int index = roundTripOrder.indexOf(tag);
            if (index >= 0)
            {
                report.append(tag, roundTripOrder.buffer(), roundTripOrder.valueOffset(index), roundTripOrder.valueLength(index));
            }
        }
        report.append(150, '0').append(39, '0').append(151, 100).append(14, 0).append(6, 0);
        return frame(report, serverWriter, out, ++seqNum, now);
    }

    /** Frames {@code message} at the start of {@code out}, as the session does; returns its length. */
    private static int frame(final MessageEncoder message, final MessageWriter writer, final UnsafeBuffer out, final int seqNum,
        final long now)
    {
        if (FRAMES_FROM_ENCODER)
        {
            return writer.write(out, 0, message, seqNum, now, false, null, 0, 0);
        }
        return writer.write(out, 0, message.msgType(), message.msgTypeLength(), seqNum, now, false, null, 0, 0,
            message.extraHeader(), message.extraHeaderLength(), message.body(), message.bodyLength());
    }

    /**
     * Whether the engine under test frames straight from a MessageEncoder, as its session does (every version after
     * 0.2.0). make codec-ab runs this class, compiled from this checkout, against older engine jars too: with them
     * it calls the form with parts, and the JVM never links the call to the form they lack.
     */
    private static final boolean FRAMES_FROM_ENCODER = hasMethod(MessageWriter.class, "write", MutableDirectBuffer.class,
        int.class, MessageEncoder.class, int.class, long.class, boolean.class, DirectBuffer.class, int.class, int.class);

    private static boolean hasMethod(final Class<?> type, final String name, final Class<?>... parameters)
    {
        try
        {
            type.getMethod(name, parameters);
            return true;
        }
        catch (final NoSuchMethodException ex)
        {
            return false;
        }
    }

    @Benchmark
    public int decodeOrder()
    {
        return decoder.decode(out, 0, framedLength) + decoder.fieldCount();
    }

    /** The CheckSum(10) check a receiver that validates makes on each message ({@code balanced}'s): the order summed. */
    @Benchmark
    public boolean checksumOrder()
    {
        return MessageFramer.checksumValid(out, 0, framedLength);
    }

    /** The next order of {@link #mixed}, in turn: a stream whose symbols, quantities and prices vary. */
    @Benchmark
    public int decodeMixedOrder()
    {
        return mixed.decodeNext(decoder);
    }

    /**
     * The round trip's answer, as its client splits it: 23 fields, three of them with tags of three digits (109, 150,
     * 151), where the throughput order has none.
     */
    @Benchmark
    public int decodeExecutionReport()
    {
        return decoder.decode(framedReport, 0, reportLength) + decoder.fieldCount();
    }

    /**
     * The next order of {@link #stream}, in turn: what the receiver splits, a different message each time at a
     * different place, where {@link #decodeOrder} splits the same bytes again and again.
     */
    @Benchmark
    public int decodeStreamOrder()
    {
        return stream.decodeNext(decoder);
    }
}
