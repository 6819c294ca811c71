package org.fixlab.engine.session;

import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.fixlab.engine.codec.Fix;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.codec.MessageDecoder;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.MsgTypes;
import org.fixlab.engine.dictionary.SessionRejectReason;
import org.fixlab.engine.messagelog.MessageLog;
import org.fixlab.engine.store.MessageStore;

/**
 * One FIX session: the state machine of the session layer (Logon, Heartbeat, TestRequest,
 * ResendRequest, SequenceReset, Reject, Logout) over a {@link SessionTransport}.
 *
 * <p>A session should only be accessed on the thread that owns it: the engine's duty cycle, or the
 * application thread that polls the engine. Nothing here is synchronized. Inbound messages arrive
 * through {@link #onMessage}, timers advance through {@link #doWork}, and the application sends
 * with {@link #trySend}, which never blocks: a full outbound buffer is reported as
 * {@link SendResult#BACK_PRESSURED}.
 *
 * <p>Back-pressure also runs the other way: a TestRequest, ResendRequest, Logon or Logout is processed
 * only when the outbound buffer has room for the answer, and the application may refuse a message for now
 * ({@link Action#ABORT}). Such a message is not consumed: {@link #onMessage} returns false, the
 * transport holds it with everything behind it and delivers it again on a later duty cycle.
 */
public final class Session
{
    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int MISSING = Integer.MIN_VALUE;
    /** Room an inbound message needs in the outbound buffer before it is processed: the largest admin answer. */
    private static final int ADMIN_ANSWER_RESERVE = 1024 + 256;
    private static final String SEQUENCE_NUMBERS_EXHAUSTED = "MsgSeqNum " + Integer.MAX_VALUE +
        " reached: sequence numbers must be reset";

    private final SessionId id;
    private final SessionRole role;
    private final SessionSettings settings;
    private final MessageStore store;
    private final Application application;
    private final EpochNanoClock clock;
    private final SessionLog log;
    private final MessageLog messageLog;
    private final SessionSender sender;
    private final HeartbeatSchedule heartbeats;
    private final MessageDecoder decoder;
    private final MessageEncoder admin = new MessageEncoder(1024);
    private final InboundChecks checks;
    /** The Reject being prepared: the checks' or a handler's reason. */
    private final Rejection rejection;
    private final InboundQueue queue;
    private final ResendResponder resender;

    private SessionTransport transport;
    private SessionState state = SessionState.DISCONNECTED;
    private boolean logonReceived;
    private boolean resetRequestedByUs;
    private long connectedAtNanos;
    private long logoutSentAtNanos;
    private int nextTargetSeqNum;
    /** Highest MsgSeqNum asked for in our outstanding ResendRequest, 0 when none is outstanding. */
    private int resendRequestedUpTo;
    private boolean processingQueue;
    /** A message taken from the gap queue was refused for now: the queue is drained again before anything else. */
    private boolean queuePaused;
    /** MsgSeqNum of the message the application last aborted, 0 when none: its redelivery skips the SendingTime check. */
    private int abortedSeqNum;
    private String disconnectReason;
    /** The last inbound frame was not consumed: the transport delivers it again, and it is logged once. */
    private boolean inboundRefused;

    public Session(final SessionId id, final SessionRole role, final SessionSettings settings, final MessageStore store,
        final Application application, final EpochNanoClock clock, final SessionLog log, final int maxFieldsPerMessage)
    {
        this(id, role, settings, store, application, clock, log, MessageLog.NONE, maxFieldsPerMessage);
    }

    public Session(final SessionId id, final SessionRole role, final SessionSettings settings, final MessageStore store,
        final Application application, final EpochNanoClock clock, final SessionLog log, final MessageLog messageLog,
        final int maxFieldsPerMessage)
    {
        this.id = id;
        this.role = role;
        this.settings = settings;
        this.store = store;
        this.application = application;
        this.clock = clock;
        this.log = log;
        this.messageLog = messageLog;
        this.sender = new SessionSender(id, store, messageLog, clock, settings.timestampPrecision());
        this.decoder = new MessageDecoder(maxFieldsPerMessage);
        this.queue = new InboundQueue(settings.maxQueuedInboundBytes());
        this.resender = new ResendResponder(sender, new MessageDecoder(maxFieldsPerMessage), settings.resendChunkMessages());
        this.checks = new InboundChecks(id, settings, decoder);
        this.rejection = checks.rejection();
        this.nextTargetSeqNum = store.nextTargetSeqNum();
        this.heartbeats = new HeartbeatSchedule(settings.testRequestDelayMultiplier(), settings.heartbeatTimeoutMultiplier());
        heartbeats.interval(settings.heartbeatIntervalSeconds());
        application.onCreate(this);
    }

    // ----------------------------------------------------------------------------------------
    // Application API
    // ----------------------------------------------------------------------------------------

    public SessionId id()
    {
        return id;
    }

    public SessionRole role()
    {
        return role;
    }

    public SessionState state()
    {
        return state;
    }

    public boolean isLoggedOn()
    {
        return state == SessionState.ACTIVE;
    }

    public boolean isConnected()
    {
        return transport != null;
    }

    public int nextSenderSeqNum()
    {
        return sender.nextSeqNum();
    }

    public int nextTargetSeqNum()
    {
        return nextTargetSeqNum;
    }

    /** The bound connection, or null while disconnected: exposes the socket timestamps t2 and t3. */
    public SessionTransport transport()
    {
        return transport;
    }

    /** Why the last connection ended, for logs and tests; null while connected. */
    public String disconnectReason()
    {
        return disconnectReason;
    }

    /**
     * Frames the encoder's message with this session's header and the next MsgSeqNum, stores it for
     * resends and hands it to the transport's buffer (written to the socket at the end of the duty
     * cycle, batched with whatever else is queued).
     *
     * @return the MsgSeqNum used, or a negative {@link SendResult}.
     */
    public long trySend(final MessageEncoder message)
    {
        if (state != SessionState.ACTIVE || lastSenderSeqNumReached())
        {
            return SendResult.NOT_LOGGED_ON;
        }
        return sender.send(message, true);
    }

    /**
     * MsgSeqNum 2147483647, the highest an int holds, is kept for our Logout: at that point the session
     * logs out asking for a reset rather than wrap to a negative number.
     */
    private boolean lastSenderSeqNumReached()
    {
        if (sender.nextSeqNum() != Integer.MAX_VALUE)
        {
            return false;
        }
        sendLogout(SEQUENCE_NUMBERS_EXHAUSTED);
        return true;
    }

    /** Answers an application message this side does not handle with BusinessMessageReject(j). */
    public long sendBusinessReject(final MessageDecoder rejected, final int businessRejectReason, final String text)
    {
        if (state != SessionState.ACTIVE || lastSenderSeqNumReached())
        {
            return SendResult.NOT_LOGGED_ON;
        }
        return sender.send(AdminMessages.businessReject(admin, rejected, businessRejectReason, text), true);
    }

    /** Starts the Logout handshake; the connection closes when the peer answers or the timeout passes. */
    public void logout(final String text)
    {
        if (state == SessionState.ACTIVE || state == SessionState.AWAITING_LOGON)
        {
            sendLogout(text);
        }
    }

    // ----------------------------------------------------------------------------------------
    // Engine-facing: connection life cycle, inbound messages, timers
    // ----------------------------------------------------------------------------------------

    /** Binds a fresh connection. An initiator sends its Logon at once. */
    public void onConnect(final SessionTransport transport, final long nowNanos)
    {
        this.transport = transport;
        this.disconnectReason = null;
        this.state = SessionState.AWAITING_LOGON;
        this.connectedAtNanos = nowNanos;
        this.heartbeats.connected(nowNanos);
        this.sender.bind(transport, nowNanos);
        this.logonReceived = false;
        this.resendRequestedUpTo = 0;
        this.queuePaused = false;
        this.abortedSeqNum = 0;
        this.inboundRefused = false;
        queue.clear();
        resender.cancel();
        if (role == SessionRole.INITIATOR)
        {
            heartbeats.interval(settings.heartbeatIntervalSeconds());
            if (settings.sendResetSeqNumFlag() || settings.resetOnLogon())
            {
                resetSequenceNumbers();
                resetRequestedByUs = true;
            }
            sendAdmin(AdminMessages.logon(admin, settings.heartbeatIntervalSeconds(), resetRequestedByUs,
                settings.username(), settings.password()));
        }
    }

    /** The connection is gone (closed by either side or broken). */
    public void onDisconnect(final String reason)
    {
        if (transport == null)
        {
            return;
        }
        final boolean wasLoggedOn = state == SessionState.ACTIVE || state == SessionState.LOGOUT_SENT;
        transport = null;
        sender.bind(null, 0);
        state = SessionState.DISCONNECTED;
        disconnectReason = reason;
        queue.clear();
        queuePaused = false;
        resender.cancel();
        resetRequestedByUs = false;
        store.flush(clock.nanoTime());
        if (settings.resetOnDisconnect())
        {
            resetSequenceNumbers();
        }
        log.info(id, "disconnected: " + reason);
        if (wasLoggedOn)
        {
            application.onLogout(this);
        }
    }

    /**
     * Advances timers and pending work: heartbeats, TestRequest, heartbeat and logon/logout
     * timeouts, and the next chunk of an outstanding resend. Returns the work done.
     */
    public int doWork(final long nowNanos)
    {
        store.flush(nowNanos); // the sync policy's interval force, on the loop's clock
        messageLog.flush(nowNanos); // lines due to reach the file, when the engine thread writes the log
        if (transport == null)
        {
            return 0;
        }
        int work = 0;
        if (queuePaused)
        {
            // a queued message the application refused: it goes before new work, as a transport's would
            drainQueue(nowNanos);
            work++;
        }
        work += resender.continueResend();
        switch (state)
        {
            case AWAITING_LOGON:
                if (nowNanos - connectedAtNanos > settings.logonTimeoutSeconds() * NANOS_PER_SECOND)
                {
                    disconnect("no Logon within " + settings.logonTimeoutSeconds() + " s");
                    work++;
                }
                break;
            case LOGOUT_SENT:
                if (nowNanos - logoutSentAtNanos > settings.logoutTimeoutSeconds() * NANOS_PER_SECOND)
                {
                    disconnect("no Logout answer within " + settings.logoutTimeoutSeconds() + " s");
                    work++;
                }
                break;
            case ACTIVE:
                work += checkHeartbeats(nowNanos);
                break;
            default:
                break;
        }
        return work;
    }

    private int checkHeartbeats(final long nowNanos)
    {
        // timer messages that meet a full buffer are tried again next cycle: a buffer that never drains
        // is the slow-reader timeout's business, not theirs
        switch (heartbeats.due(nowNanos, sender.lastSentNanos()))
        {
            case TIMEOUT:
                disconnect("heartbeat timeout: nothing received for " + TimeUnit.NANOSECONDS.toMillis(heartbeats.silenceNanos(nowNanos))
                    + " ms");
                return 1;
            case TEST_REQUEST:
                if (sender.send(AdminMessages.testRequest(admin, "TEST"), false) < 0)
                {
                    return 0;
                }
                heartbeats.testRequestSent();
                return 1;
            case HEARTBEAT:
                return sender.send(AdminMessages.heartbeat(admin, null, -1), false) < 0 ? 0 : 1;
            default:
                return 0;
        }
    }

    /**
     * The transport is about to write to the socket: the store's batch of this duty cycle (the
     * messages being written and the sequence numbers) goes to the operating system first, so a
     * message the peer can have received survives a crash of this process.
     */
    public void beforeTransportWrite()
    {
        store.writePending();
    }

    /** A frame the transport could not make sense of (bad BodyLength, no CheckSum where expected). */
    public void onGarbledFrame(final String why)
    {
        if (!logonReceived)
        {
            disconnect("garbled message before Logon: " + why);
        }
        else
        {
            log.warn(id, "dropped garbled message: " + why);
        }
    }

    /**
     * One complete inbound frame, from 8= through the SOH after 10=. Returns false when the message
     * was not consumed and must be delivered again, on a later duty cycle, before anything that came
     * after it: the application aborted it, or the outbound buffer has no room for an answer yet.
     */
    public boolean onMessage(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        if (transport == null)
        {
            return true;
        }
        if (!inboundRefused)
        {
            messageLog.message(buffer, offset, length, nowNanos);
        }
        inboundRefused = !consume(buffer, offset, length, nowNanos);
        return !inboundRefused;
    }

    private boolean consume(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        if (queuePaused && !drainQueue(nowNanos))
        {
            return false;
        }
        if (!process(buffer, offset, length, nowNanos))
        {
            return false;
        }
        if (!processingQueue && !queue.isEmpty())
        {
            drainQueue(nowNanos);
        }
        return true;
    }

    // ----------------------------------------------------------------------------------------
    // Inbound processing, in the order FIX engines conventionally check things
    // ----------------------------------------------------------------------------------------

    private boolean process(final DirectBuffer buffer, final int offset, final int length, final long nowNanos)
    {
        final String garbled = checks.frame(buffer, offset, length);
        if (garbled != null)
        {
            onGarbledFrame(garbled);
            return true;
        }
        final MessageDecoder message = decoder;
        final char msgType = message.msgTypeChar();
        if (needsAnswer(msgType) && !transport.hasRoom(Math.min(ADMIN_ANSWER_RESERVE, transport.outboundBuffer().capacity())))
        {
            // no room for the answer yet: the message waits until the buffer drains (the peer is alive, though)
            heartbeats.heardFrom(nowNanos);
            return false;
        }

        if (!message.valueEquals(0, id.version().bytes()))
        {
            if (!logonReceived)
            {
                disconnect("unexpected BeginString before Logon");
            }
            else if (msgType == MsgTypes.LOGOUT)
            {
                onLogout(message);
            }
            else
            {
                sendLogout("Incorrect BeginString");
                disconnect("Incorrect BeginString");
            }
            return true;
        }
        if (!logonReceived && msgType != MsgTypes.LOGON)
        {
            disconnect("first message is not a Logon");
            return true;
        }
        if (msgType == MsgTypes.LOGON)
        {
            final int heartBtInt = message.intValue(Fix.HEART_BT_INT, MISSING);
            if (heartBtInt != MISSING && heartBtInt < 0)
            {
                refuseLogon("HeartBtInt must not be negative");
                return true;
            }
        }
        // The one rule for MsgSeqNum: without a number the session cannot place the message, so it ends
        // (absent, or present and not a number, before any other check can answer it with a Reject)
        final int seqNum = message.intValue(Fix.MSG_SEQ_NUM, MISSING); // parsed once, here, for every check and handler
        if (seqNum == MISSING)
        {
            final String why = message.indexOf(Fix.MSG_SEQ_NUM) < 0 ? "Received message without MsgSeqNum"
                : "MsgSeqNum(34) is not a number";
            sendLogout(why);
            disconnect(why);
            return true;
        }
        final InboundChecks.Content content = checks.content(message);
        if (content == InboundChecks.Content.GARBLED)
        {
            onGarbledFrame(checks.garbledReason());
            return true;
        }
        if (content == InboundChecks.Content.REJECTED)
        {
            if (msgType == MsgTypes.LOGON || !logonReceived)
            {
                refuseLogon("Invalid Logon message: " + rejection.text());
            }
            else
            {
                sendReject(message, rejection);
            }
            return true;
        }

        switch (msgType)
        {
            case MsgTypes.LOGON:
                onLogon(message, seqNum, nowNanos);
                break;
            case MsgTypes.HEARTBEAT:
            case MsgTypes.REJECT:
                // nothing to answer: the checks, the sequence number, and the application hears of it
                if (verify(message, seqNum, nowNanos, true, true))
                {
                    nextTargetSeqNum(nextTargetSeqNum + 1);
                    application.onAdminMessage(this, message);
                }
                break;
            case MsgTypes.TEST_REQUEST:
                if (verify(message, seqNum, nowNanos, true, true))
                {
                    sendAdmin(AdminMessages.heartbeat(admin, message, message.indexOf(Fix.TEST_REQ_ID)));
                    nextTargetSeqNum(nextTargetSeqNum + 1);
                    application.onAdminMessage(this, message);
                }
                break;
            case MsgTypes.RESEND_REQUEST:
                onResendRequest(message, seqNum, nowNanos);
                break;
            case MsgTypes.SEQUENCE_RESET:
                onSequenceReset(message, seqNum, nowNanos);
                break;
            case MsgTypes.LOGOUT:
                if (verify(message, seqNum, nowNanos, false, false))
                {
                    onLogout(message);
                }
                break;
            default:
                if (verify(message, seqNum, nowNanos, true, true))
                {
                    // The application sees each MsgSeqNum once; the sequence number advances after it ran,
                    // so a crash inside the callback leads to a resend rather than a lost message.
                    if (application.onAppMessage(this, message) == Action.ABORT)
                    {
                        abortedSeqNum = nextTargetSeqNum;
                        heartbeats.heardFrom(nowNanos);
                        return false;
                    }
                    abortedSeqNum = 0;
                    nextTargetSeqNum(nextTargetSeqNum + 1);
                }
                break;
        }
        return true;
    }

    /**
     * Session messages that are answered at once. Only these wait for room in the outbound buffer:
     * Heartbeats need no answer, and application messages wait by the application's own
     * {@link Action#ABORT}, so a sender that keeps its buffer full still hears its peer.
     */
    private static boolean needsAnswer(final char msgType)
    {
        return msgType == MsgTypes.TEST_REQUEST || msgType == MsgTypes.RESEND_REQUEST || msgType == MsgTypes.LOGON ||
            msgType == MsgTypes.LOGOUT;
    }

    /**
     * The checks every message goes through before its handler runs: MsgSeqNum present, SendingTime
     * accuracy, CompIDs, then too high (queue and ask for a resend) or too low (PossDup or logout),
     * and the PossDup rules.
     */
    private boolean verify(final MessageDecoder message, final int seqNum, final long nowNanos,
        final boolean checkTooHigh, final boolean checkTooLow)
    {
        // an aborted message's SendingTime ages while it waits for us: it was checked on its first delivery
        if (seqNum != abortedSeqNum && !checks.sendingTimeAccurate(message, nowNanos))
        {
            sendReject(message, rejection);
            sendLogout("SendingTime accuracy problem, field=52");
            return false;
        }
        if (!checks.compIdsMatch(message))
        {
            sendReject(message, rejection);
            sendLogout("CompID problem");
            return false;
        }
        if (checkTooHigh && seqNum > nextTargetSeqNum)
        {
            onSequenceGap(message, seqNum);
            return false;
        }
        if (checkTooLow && seqNum < nextTargetSeqNum)
        {
            if (!message.isFlagSet(Fix.POSS_DUP_FLAG))
            {
                final String text = "MsgSeqNum too low, expecting " + nextTargetSeqNum + " but received " + seqNum;
                sendLogout(text);
                disconnect(text);
                return false;
            }
            validatePossDup(message);
            return false; // a duplicate of what we already processed: dropped once checked
        }
        if ((checkTooHigh || checkTooLow) && message.isFlagSet(Fix.POSS_DUP_FLAG) && !validatePossDup(message))
        {
            return false;
        }
        if (resendRequestedUpTo != 0 && seqNum == nextTargetSeqNum && seqNum >= resendRequestedUpTo)
        {
            resendRequestedUpTo = 0;
        }
        heartbeats.received(nowNanos);
        return true;
    }

    /** A PossDup message that breaks the rules is answered (Reject, and Logout for a bad OrigSendingTime); false then. */
    private boolean validatePossDup(final MessageDecoder message)
    {
        final InboundChecks.PossDup verdict = checks.possDup(message);
        if (verdict == InboundChecks.PossDup.VALID)
        {
            return true;
        }
        sendReject(message, rejection);
        if (verdict == InboundChecks.PossDup.ORIG_SENDING_TIME_AFTER_SENDING_TIME)
        {
            sendLogout("SendingTime accuracy problem, field=122");
        }
        return false;
    }

    /** MsgSeqNum above the expected one: keep the message and ask once for what is missing. */
    private void onSequenceGap(final MessageDecoder message, final int seqNum)
    {
        if (!queue.offer(seqNum, message.buffer(), message.offset(), message.length()))
        {
            log.warn(id, "gap queue full, message " + seqNum + " dropped; the resend will bring it again");
        }
        if (resendRequestedUpTo != 0 && seqNum >= nextTargetSeqNum && resendRequestedUpTo >= nextTargetSeqNum)
        {
            return; // already asked: our ResendRequest runs to infinity
        }
        resendRequestedUpTo = seqNum - 1 > 0 ? seqNum - 1 : 1;
        // EndSeqNo 0 means "everything after BeginSeqNo" from FIX.4.2 on
        sendAdmin(AdminMessages.resendRequest(admin, nextTargetSeqNum, 0));
    }

    /** Processes queued messages that are now in sequence; false when one was refused for now (kept queued). */
    private boolean drainQueue(final long nowNanos)
    {
        processingQueue = true;
        queuePaused = false;
        try
        {
            while (transport != null && !queue.isEmpty())
            {
                final int seqNum = nextTargetSeqNum;
                final int record = queue.take(seqNum);
                if (record < 0)
                {
                    break;
                }
                final DirectBuffer queued = queue.buffer();
                final int offset = queue.messageOffset(record);
                final int length = queue.messageLength(record);
                if (decoder.decode(queued, offset, length) == MessageDecoder.OK &&
                    (decoder.msgTypeChar() == MsgTypes.LOGON || decoder.msgTypeChar() == MsgTypes.RESEND_REQUEST))
                {
                    // Already acted on when it arrived early; now only its sequence number is consumed.
                    nextTargetSeqNum(nextTargetSeqNum + 1);
                }
                else if (!process(queued, offset, length, nowNanos) && transport != null)
                {
                    queue.restore(record, seqNum);
                    queuePaused = true;
                    return false;
                }
            }
            queue.compactIfEmpty();
            return true;
        }
        finally
        {
            processingQueue = false;
        }
    }

    private void onLogon(final MessageDecoder logon, final int seqNum, final long nowNanos)
    {
        if (logonReceived && state == SessionState.ACTIVE && !logon.isFlagSet(Fix.RESET_SEQ_NUM_FLAG))
        {
            rejection.set(SessionRejectReason.VALUE_IS_INCORRECT, Fix.MSG_TYPE, "Logon received on an active session");
            sendReject(logon, rejection);
            return;
        }
        if (!checks.sendingTimeAccurate(logon, nowNanos))
        {
            refuseLogon("Invalid Logon message: SendingTime accuracy problem, field=52");
            return;
        }
        if (!checks.compIdsMatch(logon))
        {
            disconnect("Logon with unknown CompIDs");
            return;
        }
        if (!settings.authenticator().authenticate(id, logon))
        {
            refuseLogon("Logon refused");
            return;
        }
        final boolean resetRequested = logon.isFlagSet(Fix.RESET_SEQ_NUM_FLAG);
        if (resetRequested && !resetRequestedByUs)
        {
            // The peer starts both sides over at 1; its Logon is MsgSeqNum 1.
            resetSequenceNumbers();
        }
        else if (role == SessionRole.ACCEPTOR && settings.resetOnLogon() && !logonReceived)
        {
            resetSequenceNumbers();
        }
        if (!verify(logon, seqNum, nowNanos, false, true))
        {
            return;
        }
        if (role == SessionRole.ACCEPTOR)
        {
            final int heartBtInt = logon.intValue(Fix.HEART_BT_INT, settings.heartbeatIntervalSeconds());
            heartbeats.interval(heartBtInt);
            sendAdmin(AdminMessages.logon(admin, heartBtInt, resetRequested, null, null));
        }
        logonReceived = true;
        state = SessionState.ACTIVE;
        resetRequestedByUs = false;
        // the suite a TLS connection settled on, for the operator who restricted them (tlsCipherSuites)
        final String tls = transport == null ? null : transport.tlsSession();
        log.info(id, tls == null ? "logged on" : "logged on over " + tls);
        application.onLogon(this);
        if (seqNum > nextTargetSeqNum)
        {
            onSequenceGap(logon, seqNum);
        }
        else
        {
            nextTargetSeqNum(nextTargetSeqNum + 1);
        }
    }

    private void refuseLogon(final String text)
    {
        sendLogout(text);
        disconnect("Logon refused: " + text);
    }

    private void onResendRequest(final MessageDecoder request, final int seqNum, final long nowNanos)
    {
        if (seqNum < nextTargetSeqNum && !request.isFlagSet(Fix.POSS_DUP_FLAG))
        {
            final String text = "MsgSeqNum too low, expecting " + nextTargetSeqNum + " but received " + seqNum;
            sendLogout(text);
            disconnect(text);
            return;
        }
        if (!verify(request, seqNum, nowNanos, false, false))
        {
            return;
        }
        final int begin = request.intValue(Fix.BEGIN_SEQ_NO, MISSING);
        final int end = request.intValue(Fix.END_SEQ_NO, MISSING);
        if (begin == MISSING || end == MISSING || begin < 1)
        {
            rejection.set(SessionRejectReason.REQUIRED_TAG_MISSING, begin == MISSING || begin < 1 ? Fix.BEGIN_SEQ_NO : Fix.END_SEQ_NO,
                SessionRejectReason.text(SessionRejectReason.REQUIRED_TAG_MISSING));
            sendReject(request, rejection);
            return;
        }
        final int lastSent = sender.nextSeqNum() - 1;
        // 0 (4.2+) and 999999 (4.0/4.1 habit) both mean "to the end"
        final int to = end == 0 || end >= 999_999 || end > lastSent ? lastSent : end;
        if (resender.start(begin, to))
        {
            log.info(id, "ResendRequest " + begin + ".." + end + ": replaying " + begin + ".." + to);
            resender.continueResend();
        }
        else if (resender.inProgress())
        {
            log.info(id, "ResendRequest " + begin + ".." + end + ": joins the resend in progress, now up to " + resender.end());
        }
        application.onAdminMessage(this, request);
        if (seqNum == nextTargetSeqNum)
        {
            nextTargetSeqNum(nextTargetSeqNum + 1);
        }
        else if (seqNum > nextTargetSeqNum && !queue.offer(seqNum, request.buffer(), request.offset(), request.length()))
        {
            // Answered already; queued only so that its MsgSeqNum is consumed in order. A gap before it
            // is detected by the next message in sequence, not by a ResendRequest of ours now.
            log.warn(id, "gap queue full, ResendRequest " + seqNum + " not queued");
        }
    }

    private void onSequenceReset(final MessageDecoder reset, final int seqNum, final long nowNanos)
    {
        final boolean gapFill = reset.isFlagSet(Fix.GAP_FILL_FLAG);
        if (!verify(reset, seqNum, nowNanos, gapFill, gapFill))
        {
            return;
        }
        final int newSeqNo = reset.intValue(Fix.NEW_SEQ_NO, MISSING);
        if (newSeqNo == MISSING)
        {
            rejection.set(SessionRejectReason.REQUIRED_TAG_MISSING, Fix.NEW_SEQ_NO,
                SessionRejectReason.text(SessionRejectReason.REQUIRED_TAG_MISSING));
            sendReject(reset, rejection);
            return;
        }
        if (newSeqNo > nextTargetSeqNum)
        {
            nextTargetSeqNum(newSeqNo);
        }
        else if (newSeqNo < nextTargetSeqNum)
        {
            rejection.set(SessionRejectReason.VALUE_IS_INCORRECT, Fix.NEW_SEQ_NO,
                SessionRejectReason.text(SessionRejectReason.VALUE_IS_INCORRECT));
            sendReject(reset, rejection);
        }
        application.onAdminMessage(this, reset);
    }

    private void onLogout(final MessageDecoder logout)
    {
        nextTargetSeqNum(nextTargetSeqNum + 1);
        if (state != SessionState.LOGOUT_SENT)
        {
            sendAdmin(AdminMessages.logout(admin, null));
        }
        application.onAdminMessage(this, logout);
        if (settings.resetOnLogout())
        {
            resetSequenceNumbers();
        }
        disconnect("Logout");
    }

    // ----------------------------------------------------------------------------------------
    // Outbound
    // ----------------------------------------------------------------------------------------

    private void sendReject(final MessageDecoder rejected, final Rejection why)
    {
        final int seqNum = rejected.intValue(Fix.MSG_SEQ_NUM, 0);
        final char type = rejected.msgTypeChar();
        log.warn(id, "rejecting message " + seqNum + ": " + why);
        sendAdmin(AdminMessages.reject(admin, rejected, seqNum, id.version(), why));
        // A rejected message still uses its sequence number (not so for Logon and SequenceReset, whose
        // handlers decide themselves).
        if (type != MsgTypes.LOGON && type != MsgTypes.SEQUENCE_RESET && seqNum == nextTargetSeqNum)
        {
            nextTargetSeqNum(nextTargetSeqNum + 1);
        }
    }

    private void sendLogout(final String text)
    {
        if (transport == null || state == SessionState.LOGOUT_SENT)
        {
            return;
        }
        sendAdmin(AdminMessages.logout(admin, text));
        state = SessionState.LOGOUT_SENT;
        logoutSentAtNanos = clock.nanoTime();
    }

    /**
     * An admin answer while processing an inbound message. A message that is answered at once is
     * processed only with room for its answer, so this meets a full buffer only for a Reject or when
     * one message needs several answers: what does not fit is dropped
     * with a warning (the peer asks again), and a peer that reads nothing at all is cut off by the
     * transport's slow-reader timeout, not here, since a full buffer may be only momentary.
     */
    private void sendAdmin(final MessageEncoder message)
    {
        if (transport != null && sender.send(message, false) == SendResult.BACK_PRESSURED)
        {
            log.warn(id, "outbound buffer full: session message " + (char)message.msgType()[0] + " not sent");
        }
    }

    // ----------------------------------------------------------------------------------------
    // Sequence numbers and teardown
    // ----------------------------------------------------------------------------------------

    private void nextTargetSeqNum(final int seqNum)
    {
        if (seqNum <= 0)
        {
            // MsgSeqNum 2147483647 (the largest int, the ceiling of most FIX engines) was consumed: the
            // next number does not exist, so the two sides must reset before talking on
            sendLogout(SEQUENCE_NUMBERS_EXHAUSTED);
            disconnect(SEQUENCE_NUMBERS_EXHAUSTED);
            return;
        }
        nextTargetSeqNum = seqNum;
        store.nextTargetSeqNum(seqNum);
    }

    private void resetSequenceNumbers()
    {
        store.reset();
        sender.resetSeqNum();
        nextTargetSeqNum = 1;
        resendRequestedUpTo = 0;
        queue.clear();
    }

    /** Closes the connection (after what is buffered is flushed) and moves to DISCONNECTED. */
    public void disconnect(final String reason)
    {
        final SessionTransport current = transport;
        if (current != null)
        {
            current.disconnect(reason);
            onDisconnect(reason);
        }
    }
}
