package org.fixlab.engine.codec;

import java.util.concurrent.TimeUnit;

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

    @Setup
    public void frameOne()
    {
        framedLength = encodeAndFrameOrder();
    }

    /** The stream's order (as bench-runner's fixlab client sends it) built and framed: 1 us apart, so SendingTime moves. */
    @Benchmark
    public int encodeAndFrameOrder()
    {
        now += 1_000;
        return frameOrder(order, writer, out, ++seqNum, now);
    }

    /** Builds the stream's order in {@code order} and frames it at the start of {@code out}; returns its length. */
    public static int frameOrder(final MessageEncoder order, final MessageWriter writer, final UnsafeBuffer out,
        final int seqNum, final long now)
    {
        order.reset('D').append(11, seqNum).append(21, '1').append(55, "X").append(54, '1')
            .appendTimestamp(60, now, TimestampPrecision.SECONDS).append(40, '1');
        return writer.write(out, 0, order.msgType(), order.msgTypeLength(), seqNum, now, false, null, 0, 0,
            order.extraHeader(), order.extraHeaderLength(), order.body(), order.bodyLength());
    }

    @Benchmark
    public int decodeOrder()
    {
        return decoder.decode(out, 0, framedLength) + decoder.fieldCount();
    }
}
