package org.fixlab.engine.messagelog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.CodecBenchmark;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MessageWriter;
import org.fixlab.engine.codec.TimestampPrecision;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What formatting one line of the message log costs: the throughput stream's order (as CodecBenchmark frames it)
 * escaped and copied into a session's buffer behind its timestamp, in each delimiter. A full buffer is dropped, not
 * written: the write system call into the page cache is measured where it happens, in the stream's profile, and a
 * benchmark writing lines at this rate would fill gigabytes of disk. Run with
 * {@code make jmh JMH_ARGS='MessageLogBenchmark'}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class MessageLogBenchmark
{
    @Param({"soh", "pipe"})
    public String delimiter;

    private final UnsafeBuffer order = new UnsafeBuffer(new byte[4096]);
    private int orderLength;
    private long now = CodecBenchmark.NOW;
    private Path directory;
    private SessionLogFile file;

    @Setup(Level.Trial)
    public void open() throws IOException
    {
        orderLength = CodecBenchmark.frameOrder(new MessageEncoder(),
            new MessageWriter(FixVersion.FIX42, "CLIENT", "SERVER", TimestampPrecision.MILLIS), order, 123456, now);
        directory = Files.createTempDirectory("fixlab-log-bench");
        file = new SessionLogFile(directory.resolve("bench.messages.log"), FieldDelimiter.of(delimiter));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException
    {
        file.close();
        Files.delete(file.path());
        Files.delete(directory);
    }

    @Benchmark
    public boolean format()
    {
        now += 1_000;
        if (file.remaining() < 1024)
        {
            file.discardBuffered();
        }
        file.append(order, 0, orderLength, orderLength, now);
        return file.hasBuffered();
    }
}
