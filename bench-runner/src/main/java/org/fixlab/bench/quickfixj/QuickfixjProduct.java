package org.fixlab.bench.quickfixj;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.fixlab.bench.Options;
import org.fixlab.bench.Product;
import org.fixlab.bench.ProductConfig;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.run.ProductInfo;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;

/**
 * QuickFIX/J from Maven Central, as the seed 000 port configures it: default = FileStoreFactory and
 * dictionary validation, optimized = MemoryStoreFactory without it.
 */
public final class QuickfixjProduct implements Product
{
    @Override
    public String id()
    {
        return "quickfixj";
    }

    @Override
    public String label()
    {
        return "QuickFIX/J";
    }

    @Override
    public List<String> configurations()
    {
        return List.of("default", "optimized");
    }

    /** Its queue grows without bound at 50,000 msg/s here (21 ms to 343 ms at the median in the 0.1.0 campaign). */
    @Override
    public boolean sustainsSeedRate()
    {
        return false;
    }

    /** No internal points in the quick profile, so a quick campaign stays short; every configuration elsewhere. */
    @Override
    public List<String> configurations(final Scenario scenario, final boolean full)
    {
        if (!full && scenario.isInternal())
        {
            return List.of(); // make run's budget: half a minute per internal point, the round trip and throughput suffice
        }
        return configurations();
    }

    @Override
    public Map<String, Object> info()
    {
        final Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", id());
        info.put("version", ProductInfo.mavenVersion("org.quickfixj", "quickfixj-core", quickfix.Session.class));
        info.put("commit", "maven-central");
        return info;
    }

    @Override
    public ProductConfig configure(final Options options)
    {
        final boolean optimized = options.config.equals("optimized");
        return new Config(options.config, !optimized, !optimized);
    }

    /**
     * @param fileStore  FileStoreFactory (persistent) rather than MemoryStoreFactory
     * @param dictionary validate against the FIX44/FIX42 data dictionary
     */
    record Config(String name, boolean fileStore, boolean dictionary) implements ProductConfig
    {
        @Override
        public ClientPeer client(final Scenario scenario, final Replies replies)
        {
            return new QfjClientPeer(this, scenario, replies);
        }

        @Override
        public ServerPeer server(final Scenario scenario, final ServerRecorder recorder)
        {
            return new QfjServerPeer(this, scenario, recorder);
        }

        /** QuickFIX/J answers on its own threads: the main thread only watches the control channel. */
        @Override
        public IdleStrategy serverIdle()
        {
            return new SleepingMillisIdleStrategy(1);
        }

        /** On few cores a spinning waiter would starve QuickFIX/J's own threads. */
        @Override
        public IdleStrategy clientIdle()
        {
            return new YieldingIdleStrategy();
        }

        @Override
        public Map<String, Object> manifestBlock(final Map<String, Object> sockets)
        {
            final Map<String, Object> block = ProductConfig.contractBlock(name, false, false,
                ProductConfig.validation(true, true, dictionary), fileStore ? "file" : "memory", "memory",
                "blocking (MINA selector thread, QuickFIX/J message-processor queue)", sockets,
                "SocketInitiator/SocketAcceptor with SingleThreadedEventHandlingStrategy");
            block.put("quickfixj", settingsFacts());
            return block;
        }

        Map<String, String> settingsFacts()
        {
            final Map<String, String> facts = new LinkedHashMap<>();
            facts.put("MessageStoreFactory", fileStore ? "FileStoreFactory" : "MemoryStoreFactory");
            facts.put("UseDataDictionary", dictionary ? "Y" : "N");
            facts.put("SocketTcpNoDelay", "Y");
            facts.put("ResetOnLogon", "Y");
            facts.put("PersistMessages", fileStore ? "Y" : "N");
            facts.put("LogFactory", "ScreenLogFactory(false, false, false)");
            return facts;
        }
    }
}
