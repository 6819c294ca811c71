package org.fixlab.engine.session;

import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.dictionary.DictionaryValidator;

/**
 * The per-session behaviour switches, with QuickFIX/J-compatible defaults. Fluent setters; the
 * engine configuration fills one from {@code engine.properties}. Times are in seconds as FIX users
 * write them.
 */
public final class SessionSettings
{
    private int heartbeatIntervalSeconds = 30;
    private boolean resetOnLogon;
    private boolean resetOnLogout;
    private boolean resetOnDisconnect;
    private boolean sendResetSeqNumFlag;
    private boolean validateChecksum = true;
    private boolean validateGarbledMessage = true;
    private boolean checkCompId = true;
    private boolean checkLatency = true;
    private int maxLatencySeconds = 120;
    private double testRequestDelayMultiplier = 0.5;
    private double heartbeatTimeoutMultiplier = 1.4;
    private int logonTimeoutSeconds = 10;
    private int logoutTimeoutSeconds = 2;
    private TimestampPrecision timestampPrecision = TimestampPrecision.MILLIS;
    private int maxQueuedInboundBytes = 4 * 1024 * 1024;
    private int resendChunkMessages = 256;
    private String username;
    private String password;
    private DictionaryValidator validator;
    private LogonAuthenticator authenticator = LogonAuthenticator.ACCEPT_ALL;

    /** HeartBtInt(108) an initiator proposes; an acceptor adopts the initiator's. */
    public SessionSettings heartbeatIntervalSeconds(final int value)
    {
        heartbeatIntervalSeconds = value;
        return this;
    }

    /** Reset both sequence numbers to 1 on every Logon. */
    public SessionSettings resetOnLogon(final boolean value)
    {
        resetOnLogon = value;
        return this;
    }

    public SessionSettings resetOnLogout(final boolean value)
    {
        resetOnLogout = value;
        return this;
    }

    /** Reset sequence numbers and drop stored messages whenever the connection closes. */
    public SessionSettings resetOnDisconnect(final boolean value)
    {
        resetOnDisconnect = value;
        return this;
    }

    /** An initiator sends ResetSeqNumFlag(141)=Y on its Logon, starting both sides at 1. */
    public SessionSettings sendResetSeqNumFlag(final boolean value)
    {
        sendResetSeqNumFlag = value;
        return this;
    }

    /** Drop inbound messages whose CheckSum(10) is wrong. */
    public SessionSettings validateChecksum(final boolean value)
    {
        validateChecksum = value;
        return this;
    }

    /** Drop inbound messages whose first three fields are not 8, 9, 35 or whose fields do not parse. */
    public SessionSettings validateGarbledMessage(final boolean value)
    {
        validateGarbledMessage = value;
        return this;
    }

    /** Reject and log out on SenderCompID/TargetCompID that differ from the session's. */
    public SessionSettings checkCompId(final boolean value)
    {
        checkCompId = value;
        return this;
    }

    /** Reject and log out on SendingTime(52) further than maxLatencySeconds from our clock. */
    public SessionSettings checkLatency(final boolean value)
    {
        checkLatency = value;
        return this;
    }

    public SessionSettings maxLatencySeconds(final int value)
    {
        maxLatencySeconds = value;
        return this;
    }

    public SessionSettings testRequestDelayMultiplier(final double value)
    {
        testRequestDelayMultiplier = value;
        return this;
    }

    public SessionSettings heartbeatTimeoutMultiplier(final double value)
    {
        heartbeatTimeoutMultiplier = value;
        return this;
    }

    /** How long a connection may stay without a completed Logon before it is dropped. */
    public SessionSettings logonTimeoutSeconds(final int value)
    {
        logonTimeoutSeconds = value;
        return this;
    }

    public SessionSettings logoutTimeoutSeconds(final int value)
    {
        logoutTimeoutSeconds = value;
        return this;
    }

    public SessionSettings timestampPrecision(final TimestampPrecision value)
    {
        timestampPrecision = value;
        return this;
    }

    /** Bound on messages held while a sequence gap is being filled; beyond it they are dropped and re-requested. */
    public SessionSettings maxQueuedInboundBytes(final int value)
    {
        maxQueuedInboundBytes = value;
        return this;
    }

    /** Messages replayed per duty cycle when answering a ResendRequest, so a huge resend never floods memory. */
    public SessionSettings resendChunkMessages(final int value)
    {
        resendChunkMessages = value;
        return this;
    }

    public SessionSettings credentials(final String username, final String password)
    {
        this.username = username;
        this.password = password;
        return this;
    }

    /** Data-dictionary validation of every inbound message; null (the default) validates only the header. */
    public SessionSettings validator(final DictionaryValidator value)
    {
        validator = value;
        return this;
    }

    public SessionSettings authenticator(final LogonAuthenticator value)
    {
        authenticator = value;
        return this;
    }

    public int heartbeatIntervalSeconds()
    {
        return heartbeatIntervalSeconds;
    }

    public boolean resetOnLogon()
    {
        return resetOnLogon;
    }

    public boolean resetOnLogout()
    {
        return resetOnLogout;
    }

    public boolean resetOnDisconnect()
    {
        return resetOnDisconnect;
    }

    public boolean sendResetSeqNumFlag()
    {
        return sendResetSeqNumFlag;
    }

    public boolean validateChecksum()
    {
        return validateChecksum;
    }

    public boolean validateGarbledMessage()
    {
        return validateGarbledMessage;
    }

    public boolean checkCompId()
    {
        return checkCompId;
    }

    public boolean checkLatency()
    {
        return checkLatency;
    }

    public int maxLatencySeconds()
    {
        return maxLatencySeconds;
    }

    public double testRequestDelayMultiplier()
    {
        return testRequestDelayMultiplier;
    }

    public double heartbeatTimeoutMultiplier()
    {
        return heartbeatTimeoutMultiplier;
    }

    public int logonTimeoutSeconds()
    {
        return logonTimeoutSeconds;
    }

    public int logoutTimeoutSeconds()
    {
        return logoutTimeoutSeconds;
    }

    public TimestampPrecision timestampPrecision()
    {
        return timestampPrecision;
    }

    public int maxQueuedInboundBytes()
    {
        return maxQueuedInboundBytes;
    }

    public int resendChunkMessages()
    {
        return resendChunkMessages;
    }

    public String username()
    {
        return username;
    }

    public String password()
    {
        return password;
    }

    public DictionaryValidator validator()
    {
        return validator;
    }

    public LogonAuthenticator authenticator()
    {
        return authenticator;
    }
}
