package org.fixlab.engine.session;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageFramer;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.codec.UtcTimestamps;
import org.fixlab.engine.dictionary.DictionaryValidator;
import org.fixlab.engine.dictionary.SessionRejectReason;
import org.fixlab.engine.dictionary.ValidationFailure;

/**
 * The checks an inbound message goes through, each answering with a verdict and never acting: the
 * frame (CheckSum, tag=value syntax, the first three fields, MsgType), the dictionary or required
 * header, SendingTime accuracy, the CompIDs and the PossDup rules. {@link Session} decides what a
 * verdict means in its state (drop, Reject, Logout, disconnect). A failed check's reason is left in
 * {@link #rejection()} where a Reject is the answer. Garbage-free on the path of a valid message.
 */
final class InboundChecks
{
    enum Content
    {
        VALID,
        REJECTED,
        /** The dictionary found it garbled (a data field running past the end): dropped, reason in {@link #garbledReason()}. */
        GARBLED
    }

    enum PossDup
    {
        VALID,
        /** PossDupFlag=Y without OrigSendingTime: a Reject. */
        NO_ORIG_SENDING_TIME,
        /** OrigSendingTime later than SendingTime: a Reject and a Logout. */
        ORIG_SENDING_TIME_AFTER_SENDING_TIME
    }

    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int[] REQUIRED_HEADER_TAGS = {Fix.SENDER_COMP_ID, Fix.TARGET_COMP_ID, Fix.SENDING_TIME};

    private final SessionSettings settings;
    private final MessageDecoder decoder;
    private final DictionaryValidator validator;
    private final byte[] ourCompId;
    private final byte[] theirCompId;
    private final Rejection rejection = new Rejection();
    private final ValidationFailure validationFailure = new ValidationFailure();

    InboundChecks(final SessionId id, final SessionSettings settings, final MessageDecoder decoder)
    {
        this.settings = settings;
        this.decoder = decoder;
        this.validator = settings.validator();
        this.ourCompId = id.senderCompId().getBytes(StandardCharsets.US_ASCII);
        this.theirCompId = id.targetCompId().getBytes(StandardCharsets.US_ASCII);
    }

    /** What a failed check leaves for the Reject that answers it. */
    Rejection rejection()
    {
        return rejection;
    }

    String garbledReason()
    {
        return validationFailure.text();
    }

    /**
     * Decodes the frame into the decoder and checks it is a FIX message at all. Returns null when it is,
     * else why it is garbled (the message is then dropped, or the connection closed before Logon).
     */
    String frame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (settings.validateChecksum() && !MessageFramer.checksumValid(buffer, offset, length))
        {
            return "CheckSum mismatch";
        }
        final int decoded = decoder.decode(buffer, offset, length);
        if (decoded == MessageDecoder.TOO_MANY_FIELDS)
        {
            // not garbled: the frame parses, it only holds more fields than this engine decodes
            return "more than the engine's limit of " + decoder.maxFields() + " fields";
        }
        if (decoded != MessageDecoder.OK)
        {
            return "fields do not parse as tag=value";
        }
        if (decoder.fieldCount() < 3 || decoder.tag(0) != Fix.BEGIN_STRING || decoder.tag(1) != Fix.BODY_LENGTH ||
            (settings.validateGarbledMessage() && decoder.tag(2) != Fix.MSG_TYPE))
        {
            return "first three fields are not 8, 9, 35";
        }
        return decoder.indexOf(Fix.MSG_TYPE) < 0 ? "no MsgType(35)" : null;
    }

    /**
     * Dictionary validation when configured (which covers the header too), else the session's own
     * check of the required header fields (MsgSeqNum has its own rule in the session).
     */
    Content content(final MessageDecoder message)
    {
        if (validator == null)
        {
            for (final int tag : REQUIRED_HEADER_TAGS)
            {
                if (message.indexOf(tag) < 0)
                {
                    rejection.set(SessionRejectReason.REQUIRED_TAG_MISSING, tag,
                        SessionRejectReason.text(SessionRejectReason.REQUIRED_TAG_MISSING));
                    return Content.REJECTED;
                }
            }
            return Content.VALID;
        }
        if (validator.validate(message, validationFailure))
        {
            return Content.VALID;
        }
        if (validationFailure.isGarbled())
        {
            return Content.GARBLED;
        }
        rejection.set(validationFailure);
        return Content.REJECTED;
    }

    /**
     * SendingTime within maxLatencySeconds of {@code nowNanos}, the engine clock's time of the duty cycle that read
     * the message, when checkLatency is on; the Reject reason is set otherwise. The cycle's time, not a clock read
     * per message: the tolerance is a second at least, a cycle lasts microseconds, and the read was 5% of a
     * receiving thread.
     */
    boolean sendingTimeAccurate(final MessageDecoder message, final long nowNanos)
    {
        if (!settings.checkLatency())
        {
            return true;
        }
        final long sendingTime = message.timestampValue(Fix.SENDING_TIME);
        if (sendingTime != UtcTimestamps.INVALID &&
            Math.abs(nowNanos - sendingTime) <= settings.maxLatencySeconds() * NANOS_PER_SECOND)
        {
            return true;
        }
        rejection.set(SessionRejectReason.SENDINGTIME_ACCURACY_PROBLEM, Fix.SENDING_TIME,
            SessionRejectReason.text(SessionRejectReason.SENDINGTIME_ACCURACY_PROBLEM));
        return false;
    }

    /** Their SenderCompID is our TargetCompID and the reverse, when checkCompId is on; the Reject reason is set otherwise. */
    boolean compIdsMatch(final MessageDecoder message)
    {
        if (!settings.checkCompId())
        {
            return true;
        }
        final int sender = message.indexOf(Fix.SENDER_COMP_ID);
        final int target = message.indexOf(Fix.TARGET_COMP_ID);
        if (sender >= 0 && target >= 0 && message.valueEquals(sender, theirCompId) && message.valueEquals(target, ourCompId))
        {
            return true;
        }
        rejection.setWithoutTag(SessionRejectReason.COMPID_PROBLEM, "CompID problem");
        return false;
    }

    /** PossDupFlag=Y needs OrigSendingTime, not later than SendingTime (a SequenceReset is exempt). */
    PossDup possDup(final MessageDecoder message)
    {
        if (message.msgTypeChar() == MsgTypes.SEQUENCE_RESET)
        {
            return PossDup.VALID;
        }
        if (message.indexOf(Fix.ORIG_SENDING_TIME) < 0)
        {
            rejection.set(SessionRejectReason.REQUIRED_TAG_MISSING, Fix.ORIG_SENDING_TIME,
                SessionRejectReason.text(SessionRejectReason.REQUIRED_TAG_MISSING));
            return PossDup.NO_ORIG_SENDING_TIME;
        }
        final long orig = message.timestampValue(Fix.ORIG_SENDING_TIME);
        final long sending = message.timestampValue(Fix.SENDING_TIME);
        if (orig != UtcTimestamps.INVALID && sending != UtcTimestamps.INVALID && orig > sending)
        {
            rejection.set(SessionRejectReason.SENDINGTIME_ACCURACY_PROBLEM, Fix.ORIG_SENDING_TIME,
                SessionRejectReason.text(SessionRejectReason.SENDINGTIME_ACCURACY_PROBLEM));
            return PossDup.ORIG_SENDING_TIME_AFTER_SENDING_TIME;
        }
        return PossDup.VALID;
    }
}
