package org.fixlab.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.jvm.FirstCompileResolution;
import org.fixlab.engine.messagelog.EngineMessageLog;
import org.fixlab.engine.messagelog.EngineThreadMessageLog;
import org.fixlab.engine.messagelog.MessageLog;
import org.fixlab.engine.messagelog.MessageLogWriter;
import org.fixlab.engine.session.Application;
import org.fixlab.engine.session.Session;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.fixlab.engine.session.SessionRole;
import org.fixlab.engine.session.SessionSettings;
import org.fixlab.engine.store.MessageStore;
import org.fixlab.engine.store.MessageStores;
import org.fixlab.engine.transport.CpuPinning;
import org.fixlab.engine.transport.EventLoop;
import org.fixlab.engine.transport.InitiatorConnector;
import org.fixlab.engine.transport.TransportSettings;

/**
 * The embeddable engine: sessions (acceptor and initiator), their stores, and the duty cycle that
 * drives them. Either {@link #start()} it on its own thread (idle strategy and CPU pinning from the
 * configuration), or call {@link #poll()} from a thread of your own: all callbacks and sends then
 * happen on that thread, which is the fastest arrangement on few cores.
 *
 * <pre>{@code
 * EngineConfiguration config = EngineConfiguration.load(Path.of("engine.properties"));
 * try (FixEngine engine = new FixEngine(config)) {
 *     engine.addAcceptorSession(new SessionId(FixVersion.FIX44, "ISLD", "TW"), application);
 *     engine.listen("0.0.0.0", 9880);
 *     engine.start();
 *     ...
 * }
 * }</pre>
 */
public final class FixEngine implements AutoCloseable
{
    private final EngineConfiguration configuration;
    private final EpochNanoClock clock;
    private final SessionLog log;
    private final EventLoop loop;
    /** Null when the configuration turns the message log off. */
    private final EngineMessageLog messageLog;
    private final List<MessageStore> stores = new ArrayList<>();
    private final List<InitiatorConnector> connectors = new ArrayList<>();
    private AgentRunner runner;
    private volatile String threadPlacement = "caller's thread";

    public FixEngine(final EngineConfiguration configuration)
    {
        this(configuration, new OffsetEpochNanoClock(), SessionLog.SLF4J);
    }

    public FixEngine(final EngineConfiguration configuration, final EpochNanoClock clock, final SessionLog log)
    {
        FirstCompileResolution.prepareEngineThreads();
        this.configuration = configuration;
        this.clock = clock;
        this.log = log;
        this.loop = new EventLoop(clock, TransportSettings.from(configuration), configuration.integer("maxFieldsPerMessage"),
            configuration.integer("maxPendingConnections"), configuration.integer("logonTimeoutSeconds"), log);
        this.messageLog = configuration.bool("messageLog") ? openMessageLog(configuration) : null;
    }

    private static EngineMessageLog openMessageLog(final EngineConfiguration configuration)
    {
        return switch (configuration.messageLogWriter())
        {
            case ENGINE_THREAD -> new EngineThreadMessageLog(configuration.messageLogDirectory(), configuration.messageLogDelimiter(),
                TimeUnit.MILLISECONDS.toNanos(configuration.integer("messageLogFlushIntervalMs")));
            case OWN_THREAD -> new MessageLogWriter(configuration.messageLogDirectory(), configuration.messageLogDelimiter(),
                configuration.integer("messageLogBufferSize"));
        };
    }

    public EngineConfiguration configuration()
    {
        return configuration;
    }

    /** Session settings as the configuration says; adjust the returned object per session if needed. */
    public SessionSettings sessionSettings()
    {
        return SessionConfigurations.settingsFrom(configuration);
    }

    public Session addAcceptorSession(final SessionId id, final Application application)
    {
        return addAcceptorSession(id, application, settings -> { });
    }

    public Session addAcceptorSession(final SessionId id, final Application application, final Consumer<SessionSettings> customize)
    {
        final Session session = newSession(id, SessionRole.ACCEPTOR, application, customize);
        loop.addAcceptorSession(session);
        return session;
    }

    public Session addInitiatorSession(final SessionId id, final String host, final int port, final Application application)
    {
        return addInitiatorSession(id, host, port, application, settings -> { });
    }

    public Session addInitiatorSession(final SessionId id, final String host, final int port, final Application application,
        final Consumer<SessionSettings> customize)
    {
        final Session session = newSession(id, SessionRole.INITIATOR, application, customize);
        connectors.add(loop.addInitiatorSession(session, host, port, configuration.integer("reconnectIntervalMs"),
            configuration.integer("reconnectMaxIntervalMs")));
        return session;
    }

    /** Stops an initiator from reconnecting, e.g. before a deliberate logout. */
    public void stopReconnecting(final Session session)
    {
        for (final InitiatorConnector connector : connectors)
        {
            if (connector.session() == session)
            {
                connector.disable();
            }
        }
    }

    private Session newSession(final SessionId id, final SessionRole role, final Application application,
        final Consumer<SessionSettings> customize)
    {
        final SessionSettings settings = sessionSettings().validator(SessionConfigurations.validatorFor(configuration, id.version()));
        customize.accept(settings);
        final MessageStore store = MessageStores.open(configuration.storeType(),
            configuration.storeDirectory(), id.key(), SessionConfigurations.storeOptions(configuration));
        stores.add(store);
        return new Session(id, role, settings, store, application, clock, log,
            messageLog == null ? MessageLog.NONE : messageLog.forSession(id), configuration.integer("maxFieldsPerMessage"));
    }

    /** Listens for acceptor sessions; port 0 picks a free port, which is returned. */
    public int listen(final String host, final int port)
    {
        try
        {
            return loop.listen(host, port);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex.getMessage(), ex);
        }
    }

    /** One duty cycle on the calling thread. Returns the work done (0 means idle). */
    public int poll()
    {
        return loop.doWork();
    }

    /** Runs the duty cycle on a thread of the engine's own, with the configured idle strategy and pinning. */
    public synchronized void start()
    {
        if (runner != null)
        {
            throw new IllegalStateException("engine already started");
        }
        final boolean pin = configuration.bool("cpuAffinity");
        final int cpu = configuration.integer("cpuAffinityCpu");
        runner = new AgentRunner(configuration.idleStrategy().create(), ex -> log.warn(null, "engine error: " + ex), null,
            new PinnedAgent(loop, pin, cpu, placement -> threadPlacement = placement));
        AgentRunner.startOnThread(runner);
    }

    /** Where the engine thread runs ("pinned to CPU 1", "unpinned (...)"), for logs and result manifests. */
    public String threadPlacement()
    {
        return threadPlacement;
    }

    /** Polls on the calling thread until the condition holds or the timeout passes; for tools and tests. */
    public boolean pollUntil(final java.util.function.BooleanSupplier condition, final long timeout, final TimeUnit unit)
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                return false;
            }
            if (runner == null)
            {
                if (poll() == 0)
                {
                    Thread.onSpinWait();
                }
            }
            else
            {
                Thread.onSpinWait();
            }
        }
        return true;
    }

    @Override
    public synchronized void close()
    {
        if (runner != null)
        {
            runner.close();
            runner = null;
        }
        else
        {
            loop.close();
        }
        for (final MessageStore store : stores)
        {
            store.close();
        }
        stores.clear();
        if (messageLog != null)
        {
            messageLog.close(); // after the loop: what the sessions sent while closing is logged too
        }
    }

    /** The message log, or null when {@code messageLog=false}: for its counters (and its thread, with own-thread). */
    public EngineMessageLog messageLog()
    {
        return messageLog;
    }

    /** Runs the loop, taking a CPU first when asked to; releases it when the loop stops. */
    private static final class PinnedAgent implements org.agrona.concurrent.Agent
    {
        private final EventLoop loop;
        private final boolean pin;
        private final int cpu;
        private final Consumer<String> placement;
        private CpuPinning pinning;

        PinnedAgent(final EventLoop loop, final boolean pin, final int cpu, final Consumer<String> placement)
        {
            this.loop = loop;
            this.pin = pin;
            this.cpu = cpu;
            this.placement = placement;
        }

        @Override
        public void onStart()
        {
            pinning = pin ? CpuPinning.pin(cpu) : CpuPinning.none();
            placement.accept(pinning.description());
        }

        @Override
        public int doWork()
        {
            return loop.doWork();
        }

        @Override
        public void onClose()
        {
            loop.close();
            if (pinning != null)
            {
                pinning.close();
            }
        }

        @Override
        public String roleName()
        {
            return loop.roleName();
        }
    }
}
