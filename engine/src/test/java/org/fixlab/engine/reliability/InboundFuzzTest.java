package org.fixlab.engine.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageFramer;
import org.fixlab.engine.dictionary.DataDictionary;
import org.fixlab.engine.dictionary.DictionaryValidator;
import org.fixlab.engine.session.RecordingTransport;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.fixlab.engine.session.SessionRole;
import org.fixlab.engine.session.SessionSettings;
import org.fixlab.engine.store.MemoryStore;
import org.fixlab.engine.tools.EchoApplication;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzz targets (Jazzer) for everything an inbound byte touches: the framer and the
 * decoder on arbitrary bytes, and an acceptor session, logged on by a scripted Logon, fed a mix of
 * raw bytes and well-framed messages with fuzzed fields, clock jumps and reconnects. No exception may
 * escape, the framer must always make progress, and whatever the session writes back must itself be
 * a well-formed FIX message.
 *
 * <p>{@code make test} runs the committed corpus ({@code InboundFuzzTestInputs/}) as ordinary tests;
 * {@code make fuzz} fuzzes each target for FUZZ_SECONDS.
 */
class InboundFuzzTest
{
    private static final int MAX_MESSAGE_SIZE = 8192;
    private static final SessionId SESSION = new SessionId(FixVersion.FIX44, "ISLD", "TW");
    private static final DictionaryValidator VALIDATOR = new DictionaryValidator(DataDictionary.standard(FixVersion.FIX44));
    private static final String[] MSG_TYPES = {"0", "1", "2", "3", "4", "5", "A", "D", "8", "j", "AE", ""};
    private static final int[] TAGS = {7, 10, 16, 34, 35, 36, 43, 45, 49, 52, 56, 58, 97, 108, 112, 122, 123, 141, 11, 21, 38, 40,
        44, 54, 55, 60, 373, 371, 372, 553, 554};
    private static final String SENDING_TIME = "20240102-10:00:00.000";
    private static final long START_NANOS = 1_704_189_600_000_000_000L; // 2024-01-02T10:00:00Z

    @FuzzTest
    void framerAndDecoder(final byte[] input)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(input);
        final MessageFramer framer = new MessageFramer(MAX_MESSAGE_SIZE);
        final MessageDecoder decoder = new MessageDecoder(64);
        readEverything(decoder, buffer, 0, input.length);
        int offset = 0;
        while (offset < input.length)
        {
            final int result = framer.scan(buffer, offset, input.length);
            final int resumeAt = framer.resumeAt();
            assertTrue(resumeAt >= offset && resumeAt <= input.length, "resumeAt out of range");
            if (result == MessageFramer.NEED_MORE)
            {
                break;
            }
            assertTrue(resumeAt > offset, "the framer made no progress");
            if (result == MessageFramer.FRAME)
            {
                final int start = framer.frameStart();
                final int length = framer.frameLength();
                assertTrue(start >= offset && start + length <= input.length && length <= MAX_MESSAGE_SIZE, "frame out of range");
                MessageFramer.checksumValid(buffer, start, length);
                readEverything(decoder, buffer, start, length);
            }
            offset = resumeAt;
        }
    }

    /** Decodes and reads every field through every accessor a session uses. */
    private static void readEverything(final MessageDecoder decoder, final UnsafeBuffer buffer, final int offset, final int length)
    {
        if (length == 0 || decoder.decode(buffer, offset, length) != MessageDecoder.OK)
        {
            return;
        }
        decoder.msgTypeChar();
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < decoder.fieldCount(); i++)
        {
            final int tag = decoder.tag(i);
            assertTrue(decoder.valueOffset(i) >= offset && decoder.valueOffset(i) + decoder.valueLength(i) <= offset + length);
            decoder.intValue(tag, -1);
            decoder.longValue(tag, -1);
            decoder.timestampValue(tag);
            decoder.isFlagSet(tag);
            decoder.appendValue(i, sb);
        }
        decoder.appendTo(sb);
    }

    @FuzzTest
    void sessionInbound(final FuzzedDataProvider data)
    {
        final FuzzClock clock = new FuzzClock();
        final SessionSettings settings = new SessionSettings().checkLatency(data.consumeBoolean()).maxQueuedInboundBytes(16 * 1024)
            .resendChunkMessages(8).logonTimeoutSeconds(2).validator(data.consumeBoolean() ? VALIDATOR : null);
        final MemoryStore store = new MemoryStore(64 * 1024);
        final Session session = new Session(SESSION, SessionRole.ACCEPTOR, settings, store, new EchoApplication(), clock,
            SessionLog.SILENT, 64);
        final InboundFeed feed = new InboundFeed(session, clock);
        feed.connectAndLogOn(data.consumeBoolean() ? 1 : 30);
        for (int step = 0; step < 64 && data.remainingBytes() > 0; step++)
        {
            switch (data.consumeInt(0, 4))
            {
                case 0:
                    feed.bytes(data.consumeBytes(data.consumeInt(0, 512)));
                    break;
                case 1:
                case 2:
                    feed.bytes(fuzzedMessage(data, session.nextTargetSeqNum()).getBytes(StandardCharsets.ISO_8859_1));
                    break;
                case 3:
                    clock.nanos += data.consumeLong(0, 120_000_000_000L);
                    session.doWork(clock.nanos);
                    break;
                default:
                    if (!session.isConnected())
                    {
                        feed.connectAndLogOn(30);
                    }
                    else if (data.consumeBoolean())
                    {
                        session.logout("fuzz");
                    }
                    break;
            }
            assertTrue(session.nextTargetSeqNum() >= 1 && session.nextSenderSeqNum() >= 1, "sequence numbers below 1");
        }
        store.close();
    }

    /** A message with a correct BodyLength and CheckSum, so that the fuzzer's fields reach the session layer. */
    private static String fuzzedMessage(final FuzzedDataProvider data, final int expectedSeqNum)
    {
        final StringBuilder fields = new StringBuilder();
        fields.append("35=").append(data.consumeBoolean() ? data.pickValue(MSG_TYPES) : data.consumeAsciiString(3)).append('|');
        if (!data.consumeBoolean() || data.consumeBoolean())
        {
            fields.append("49=TW|56=ISLD|");
        }
        fields.append("34=").append(data.consumeBoolean() ? expectedSeqNum + data.consumeInt(-2, 3) : data.consumeInt()).append('|');
        fields.append("52=").append(data.consumeBoolean() ? SENDING_TIME : data.consumeAsciiString(24)).append('|');
        final int extra = data.consumeInt(0, 10);
        for (int i = 0; i < extra; i++)
        {
            final int tag = data.consumeBoolean() ? data.pickValue(TAGS) : data.consumeInt(-5, 20_000);
            final String value = data.consumeBoolean() ? String.valueOf(data.consumeInt(-1, 100)) : data.consumeAsciiString(16);
            fields.append(tag).append('=').append(value).append('|');
        }
        return RawFixPeer.frame(data.consumeBoolean() ? "FIX.4.4" : data.consumeAsciiString(8), fields.toString());
    }

    /** The transport's read path without a socket: framer, then the session, as TcpConnection does it. */
    private static final class InboundFeed
    {
        private final Session session;
        private final FuzzClock clock;
        private final MessageFramer framer = new MessageFramer(MAX_MESSAGE_SIZE);
        private final UnsafeBuffer inbound = new UnsafeBuffer(ByteBuffer.allocate(MAX_MESSAGE_SIZE * 2));
        private RecordingTransport transport;

        InboundFeed(final Session session, final FuzzClock clock)
        {
            this.session = session;
            this.clock = clock;
        }

        void connectAndLogOn(final int heartBtInt)
        {
            transport = new RecordingTransport();
            session.onConnect(transport, clock.nanos);
            final int logonSeqNum = session.nextTargetSeqNum();
            bytes(RawFixPeer.frame("FIX.4.4", "35=A|49=TW|56=ISLD|34=" + logonSeqNum + "|52=" + SENDING_TIME + "|98=0|108=" +
                heartBtInt + "|").getBytes(StandardCharsets.ISO_8859_1));
        }

        void bytes(final byte[] bytes)
        {
            if (!session.isConnected() || bytes.length > inbound.capacity())
            {
                return;
            }
            inbound.putBytes(0, bytes);
            int offset = 0;
            while (offset < bytes.length && session.isConnected())
            {
                final int result = framer.scan(inbound, offset, bytes.length);
                if (result == MessageFramer.FRAME)
                {
                    offset = framer.resumeAt();
                    session.onMessage(inbound, framer.frameStart(), framer.frameLength(), clock.nanos);
                }
                else if (result == MessageFramer.GARBLED)
                {
                    offset = framer.resumeAt();
                    session.onGarbledFrame("fuzz");
                }
                else if (result == MessageFramer.TOO_LARGE)
                {
                    session.disconnect("too large");
                }
                else
                {
                    break;
                }
            }
            session.doWork(clock.nanos);
            transport.takeMessages(); // each one checked: it frames, BodyLength and CheckSum recomputed
        }
    }

    private static final class FuzzClock implements EpochNanoClock
    {
        long nanos = START_NANOS;

        @Override
        public long nanoTime()
        {
            return nanos;
        }
    }
}
