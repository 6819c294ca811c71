package org.fixlab.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.messagelog.FieldDelimiter;
import org.fixlab.engine.messagelog.MessageLogThread;
import org.fixlab.engine.messagelog.MessageLogWriter;
import org.fixlab.engine.store.StoreType;
import org.fixlab.engine.store.SyncPolicy;

import static org.fixlab.engine.config.OptionKind.BOOL;
import static org.fixlab.engine.config.OptionKind.PATH;
import static org.fixlab.engine.config.OptionKind.POSITIVE_NUMBER;
import static org.fixlab.engine.config.OptionKind.TEXT;
import static org.fixlab.engine.config.OptionKind.choice;
import static org.fixlab.engine.config.OptionKind.listOf;
import static org.fixlab.engine.config.OptionKind.powerOfTwo;
import static org.fixlab.engine.config.OptionKind.range;

/**
 * Every engine option in one object. Each option has a key (as written in {@code engine.properties}),
 * an {@link OptionKind} that says which values it accepts, a default per {@link Preset}, and a one-line
 * description; {@link #options()} lists them all, which is what the configuration reference is generated
 * from. Values are checked by their kind when set: an unknown key or a bad value is refused with a
 * message naming the key.
 *
 * <p>Load with {@link #load(Path)} or {@link #fromProperties(Properties)}, or start from
 * {@link #preset(Preset)} and call {@link #set(String, String)}.
 */
public final class EngineConfiguration
{
    public static final String PRESET_KEY = "preset";

    private static final Map<String, EngineOption> OPTIONS = new LinkedHashMap<>();

    private static void option(final String key, final OptionKind kind, final String balanced, final String optimized,
        final String doc)
    {
        OPTIONS.put(key, new EngineOption(key, kind, balanced, optimized, doc));
    }

    static
    {
        // transport
        option("tcpNoDelay", BOOL, "false", "true", "TCP_NODELAY: true turns Nagle's algorithm off (send small messages at once)");
        option("socketSendBufferSize", range(0, Integer.MAX_VALUE), "262144", "1048576", "SO_SNDBUF in bytes, 0 for the OS default");
        option("socketReceiveBufferSize", range(0, Integer.MAX_VALUE), "262144", "1048576", "SO_RCVBUF in bytes, 0 for the OS default");
        option("inboundBufferSize", range(1024, Integer.MAX_VALUE), "262144", "262144", "bytes read from a socket per connection before messages are cut out");
        option("outboundBufferSize", range(1024, Integer.MAX_VALUE), "262144", "1048576", "bytes of outbound messages buffered per connection; full means back-pressure");
        option("slowReaderTimeoutMs", range(1, Integer.MAX_VALUE), "10000", "10000", "close a connection whose outbound buffer has held bytes and written none of them for this long (a peer that stopped reading); a buffer that is full but draining is back-pressure, never a reason to close");
        option("maxMessageSize", range(1024, Integer.MAX_VALUE), "65536", "65536", "largest inbound message in bytes; a longer BodyLength closes the connection");
        option("maxFieldsPerMessage", range(1, 1_000_000), "1024", "1024", "most fields one message may have");
        option("maxPendingConnections", range(1, 1_000_000), "64", "64", "accepted connections that have not logged on yet; more are closed at once");
        option("reconnectIntervalMs", range(1, Integer.MAX_VALUE), "1000", "1000", "initiator: first pause before reconnecting; doubles per failure");
        option("reconnectMaxIntervalMs", range(1, Integer.MAX_VALUE), "30000", "30000", "initiator: longest pause between reconnect attempts");
        // threading
        option("idleStrategy", choice(IdleStrategyType::of), "backoff", "busy-spin", "engine thread when idle: busy-spin, yielding, backoff or sleeping");
        option("cpuAffinity", BOOL, "false", "true", "pin the engine thread to a CPU (OpenHFT Affinity); falls back to unpinned with one log line");
        option("cpuAffinityCpu", range(-1, 4096), "-1", "-1", "CPU to pin to; -1 lets Affinity pick the last free one");
        // store
        option("storeType", choice(StoreType::of), "mapped", "memory", "message store: memory, file or mapped (memory-mapped file)");
        option("storeDirectory", PATH, "fixlab-store", "fixlab-store", "directory of file and mapped stores");
        option("storeSyncPolicy", choice(SyncPolicy::of), "none", "none", "when persistent stores force writes to disk: none (survives a process crash), every-message, interval");
        option("storeSyncIntervalMs", range(1, Integer.MAX_VALUE), "100", "100", "with storeSyncPolicy=interval, the longest time between forces");
        option("storeIndexCapacity", range(1, 1 << 30), "262144", "262144", "file and mapped stores: sequence numbers whose index is allocated up front (8 bytes each); beyond them it grows 65,536 at a time, each piece readied on idle duty cycles before the numbers reach it");
        // message log
        option("messageLog", BOOL, "true", "false", "log every inbound and outbound message of each session to a file per session, BeginString-SenderCompID-TargetCompID.messages.log in messageLogDirectory (QuickFIX/J's FileLog names and format)");
        option("messageLogWriter", choice(MessageLogThread::of), "engine-thread", "engine-thread", "who formats and writes the message log: engine-thread (in the duty cycle, a write per buffer-full, 64 KiB growing to 1 MiB for a busy session, or per messageLogFlushIntervalMs; no thread to wake) or own-thread (a thread of its own, fed through a ring of messageLogBufferSize bytes; a slow disk never reaches the duty cycle, but the thread needs a core)");
        option("messageLogFlushIntervalMs", range(0, 60_000), "10", "10", "engine-thread: the longest a logged line waits in its session's buffer before it is written to the file, 16 KiB of whole lines a duty cycle (0: a write per message)");
        option("messageLogDirectory", PATH, "", "", "directory of the message log files; empty puts them beside the store's, in storeDirectory");
        option("messageLogDelimiter", choice(FieldDelimiter::of), "soh", "soh", "field delimiter in the message log: soh (as QuickFIX/J writes it) or pipe; other control and non-ASCII bytes are always escaped as \\xNN");
        option("messageLogBufferSize", powerOfTwo(MessageLogWriter.MIN_BUFFER_SIZE, 1 << 30, ""), "8388608", "8388608", "own-thread: bytes (a power of two, at least 1 MiB) of the ring between the engine thread and the message log's writer; when full, the engine waits for it");
        option("memoryStoreCapacity", powerOfTwo(1, 1 << 30, "the ring is indexed by mask"), "67108864", "67108864", "bytes (a power of two) of sent messages a memory store keeps for resends; older ones are gap-filled");
        // validation
        option("validateChecksum", BOOL, "true", "false", "drop inbound messages with a wrong CheckSum(10)");
        option("validateGarbledMessage", BOOL, "true", "false", "drop inbound messages whose first fields are not 8, 9, 35 or that do not parse");
        option("validateDictionary", BOOL, "false", "false", "validate against a data dictionary: required fields, enums, formats, order, groups");
        option("dictionaryFile", PATH, "", "", "QuickFIX-format XML dictionary; empty uses the standard FIX42.xml/FIX44.xml");
        option("validateUserDefinedFields", BOOL, "true", "true", "with a dictionary: reject tags >= 5000 that it does not define");
        option("checkCompId", BOOL, "true", "true", "reject and log out on a SenderCompID/TargetCompID that is not the session's");
        option("checkLatency", BOOL, "true", "false", "reject and log out on a SendingTime(52) too far from our clock");
        option("maxLatencySeconds", range(1, Integer.MAX_VALUE), "120", "120", "with checkLatency, the largest accepted clock difference");
        // session
        option("heartbeatIntervalSeconds", range(1, Integer.MAX_VALUE), "30", "30", "HeartBtInt(108) an initiator proposes");
        option("testRequestDelayMultiplier", POSITIVE_NUMBER, "0.5", "0.5", "send TestRequest after (1 + this) x HeartBtInt of silence");
        option("heartbeatTimeoutMultiplier", POSITIVE_NUMBER, "1.4", "1.4", "disconnect after (1 + this) x HeartBtInt of silence");
        option("logonTimeoutSeconds", range(1, Integer.MAX_VALUE), "10", "10", "close a connection that has not completed Logon in this time");
        option("logoutTimeoutSeconds", range(1, Integer.MAX_VALUE), "2", "2", "close after our Logout if the peer does not answer in this time");
        option("resetOnLogon", BOOL, "false", "false", "start both sequence numbers at 1 on every Logon");
        option("resetOnLogout", BOOL, "false", "false", "start both sequence numbers at 1 after a Logout");
        option("resetOnDisconnect", BOOL, "false", "false", "start both sequence numbers at 1 whenever the connection drops");
        option("timestampPrecision", choice(TimestampPrecision::of), "millis", "millis", "SendingTime precision: seconds, millis, micros or nanos");
        option("resendChunkMessages", range(1, 1_000_000), "256", "256", "messages replayed per duty cycle when answering a ResendRequest");
        option("maxQueuedInboundBytes", range(1024, Integer.MAX_VALUE), "4194304", "4194304", "bytes of early messages held while a sequence gap is filled");
        tlsOptions();
    }

    // ---- TLS (read by transport.TlsSettings) --------------------------------------------------

    private static void tlsOptions()
    {
        option("tlsEnabled", BOOL, "false", "false", "TLS on every connection of this engine, acceptor and initiator (SSLEngine on the engine thread)");
        option("tlsKeyStore", PATH, "", "", "TLS: key store file with this side's certificate and key; needed to accept, optional to initiate (client certificate)");
        option("tlsKeyStorePassword", TEXT, "", "", "TLS: password of the key store and its key (shown masked)");
        option("tlsKeyStoreType", TEXT, "PKCS12", "PKCS12", "TLS: key store type, PKCS12 or JKS");
        option("tlsTrustStore", PATH, "", "", "TLS: trust store file (certificates of trusted peers or CAs); empty uses the JDK's default");
        option("tlsTrustStorePassword", TEXT, "", "", "TLS: password of the trust store (shown masked)");
        option("tlsTrustStoreType", TEXT, "PKCS12", "PKCS12", "TLS: trust store type, PKCS12 or JKS");
        option("tlsProtocols", listOf("TLSv1.3", "TLSv1.2"), "TLSv1.3,TLSv1.2", "TLSv1.3,TLSv1.2", "TLS: protocols offered, comma-separated, of TLSv1.3 and TLSv1.2");
        option("tlsCipherSuites", TEXT, "", "", "TLS: cipher suites enabled, comma-separated, in order of preference (the acceptor's order decides), e.g. TLS_AES_128_GCM_SHA256; empty keeps the JDK's (TLS_AES_256_GCM_SHA384 first on JDK 17)");
        option("tlsNeedClientAuth", BOOL, "false", "false", "TLS acceptor: require a client certificate that the trust store accepts");
        option("tlsVerifyHostname", BOOL, "true", "true", "TLS initiator: require the acceptor's certificate to name the host connected to (endpoint identification)");
    }

    /** Passwords are never printed: describe() goes to logs, effectiveValues() into run manifests. */
    private static String displayed(final String key, final String value)
    {
        return key.endsWith("Password") && !value.isEmpty() ? "********" : value;
    }

    private final Preset preset;
    private final Map<String, String> values = new LinkedHashMap<>();

    private EngineConfiguration(final Preset preset)
    {
        this.preset = preset;
        for (final EngineOption option : OPTIONS.values())
        {
            values.put(option.key(), option.defaultFor(preset));
        }
    }

    public static EngineConfiguration preset(final Preset preset)
    {
        return new EngineConfiguration(preset);
    }

    /** Every option, in documentation order. */
    public static List<EngineOption> options()
    {
        return Collections.unmodifiableList(new ArrayList<>(OPTIONS.values()));
    }

    public static EngineConfiguration load(final Path file)
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1))
        {
            properties.load(reader);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot be read: " + ex.getMessage(), ex);
        }
        try
        {
            return fromProperties(properties);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
        }
    }

    public static EngineConfiguration load(final InputStream in, final String name)
    {
        final Properties properties = new Properties();
        try
        {
            properties.load(in);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(name + ": cannot be read: " + ex.getMessage(), ex);
        }
        try
        {
            return fromProperties(properties);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(name + ": " + ex.getMessage(), ex);
        }
    }

    /** The preset named by {@code preset} (default balanced), then every other key applied on top. */
    public static EngineConfiguration fromProperties(final Properties properties)
    {
        final String presetName = properties.getProperty(PRESET_KEY, "balanced").trim();
        final EngineConfiguration configuration = preset(Preset.of(presetName));
        for (final String key : new TreeSet<>(properties.stringPropertyNames()))
        {
            if (!key.equals(PRESET_KEY))
            {
                configuration.set(key, properties.getProperty(key).trim());
            }
        }
        return configuration;
    }

    /** Sets one option; refuses an unknown key or a value of the wrong kind, naming the key. */
    public EngineConfiguration set(final String key, final String value)
    {
        if (OPTIONS.get(key) == null)
        {
            throw new IllegalArgumentException("unknown key '" + key + "' (known keys: " + String.join(", ", OPTIONS.keySet()) + ")");
        }
        final String previous = values.put(key, value);
        try
        {
            OPTIONS.get(key).kind().validate(value);
        }
        catch (final IllegalArgumentException ex)
        {
            values.put(key, previous);
            throw new IllegalArgumentException(key + ": " + ex.getMessage(), ex);
        }
        return this;
    }

    // ---- typed accessors -------------------------------------------------------------------

    public Preset presetName()
    {
        return preset;
    }

    public String value(final String key)
    {
        if (!OPTIONS.containsKey(key))
        {
            throw new IllegalArgumentException("unknown key '" + key + "'");
        }
        return values.get(key);
    }

    public boolean bool(final String key)
    {
        return OptionKind.Bool.parse(value(key));
    }

    /** The value as an integer in {@code min..max}, for callers that narrow an option's own range. */
    public int integer(final String key, final int min, final int max)
    {
        return range(min, max).parse(value(key));
    }

    public int integer(final String key)
    {
        return Integer.parseInt(value(key));
    }

    public boolean tcpNoDelay()
    {
        return bool("tcpNoDelay");
    }

    public IdleStrategyType idleStrategy()
    {
        return IdleStrategyType.of(value("idleStrategy"));
    }

    public StoreType storeType()
    {
        return StoreType.of(value("storeType"));
    }

    public SyncPolicy storeSyncPolicy()
    {
        return SyncPolicy.of(value("storeSyncPolicy"));
    }

    public Path storeDirectory()
    {
        return Path.of(value("storeDirectory"));
    }

    public FieldDelimiter messageLogDelimiter()
    {
        return FieldDelimiter.of(value("messageLogDelimiter"));
    }

    public MessageLogThread messageLogWriter()
    {
        return MessageLogThread.of(value("messageLogWriter"));
    }

    public Path messageLogDirectory()
    {
        return value("messageLogDirectory").isEmpty() ? storeDirectory() : Path.of(value("messageLogDirectory"));
    }

    public TimestampPrecision timestampPrecision()
    {
        return TimestampPrecision.of(value("timestampPrecision"));
    }

    public double testRequestDelayMultiplier()
    {
        return OptionKind.PositiveNumber.parse(value("testRequestDelayMultiplier"));
    }

    public double heartbeatTimeoutMultiplier()
    {
        return OptionKind.PositiveNumber.parse(value("heartbeatTimeoutMultiplier"));
    }

    /** The effective values, one {@code key=value} per line, for the start-up log and run manifests. */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder("preset=").append(preset.name().toLowerCase(java.util.Locale.ROOT)).append('\n');
        values.forEach((key, value) -> sb.append(key).append('=').append(displayed(key, value)).append('\n'));
        return sb.toString();
    }

    /** The effective values as a map (insertion ordered), for manifests. */
    public Map<String, String> effectiveValues()
    {
        final Map<String, String> copy = new LinkedHashMap<>();
        copy.put(PRESET_KEY, preset.name().toLowerCase(java.util.Locale.ROOT));
        values.forEach((key, value) -> copy.put(key, displayed(key, value)));
        return copy;
    }
}
