package org.fixlab.bench.raw;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.fixlab.bench.Options;
import org.fixlab.bench.Product;
import org.fixlab.bench.ProductConfig;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.ClientPeer;
import org.fixlab.bench.client.Replies;
import org.fixlab.bench.run.ProductInfo;
import org.fixlab.bench.server.ServerPeer;
import org.fixlab.bench.server.ServerRecorder;

/** The floor: the same bytes over a non-blocking socket with no FIX session at all. */
public final class RawSocketProduct implements Product
{
    @Override
    public String id()
    {
        return "raw-socket";
    }

    @Override
    public String label()
    {
        return "raw socket";
    }

    @Override
    public String role()
    {
        return "baseline";
    }

    @Override
    public List<String> configurations()
    {
        return List.of("busy-spin");
    }

    /** The baseline is the runner's own code: it is versioned with the runner. */
    @Override
    public Map<String, Object> info()
    {
        final Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", id());
        info.put("version", ProductInfo.mavenVersion("org.fixlab", "fixlab-engine", org.fixlab.engine.FixEngine.class));
        info.put("commit", ProductInfo.gitCommit());
        return info;
    }

    @Override
    public ProductConfig configure(final Options options)
    {
        return new Config(options.config);
    }

    record Config(String name) implements ProductConfig
    {
        @Override
        public ClientPeer client(final Scenario scenario, final Replies replies)
        {
            return new RawClientPeer(scenario, replies);
        }

        @Override
        public ServerPeer server(final Scenario scenario, final ServerRecorder recorder)
        {
            return new RawServerPeer(scenario, recorder);
        }

        @Override
        public IdleStrategy serverIdle()
        {
            return new BusySpinIdleStrategy();
        }

        @Override
        public Map<String, Object> manifestBlock(final Map<String, Object> sockets)
        {
            return ProductConfig.contractBlock(name, false, false, ProductConfig.validation(false, false, false), "none", "none",
                "busy-spin", sockets, "one thread per process, non-blocking java.nio SocketChannel read in a spin loop");
        }
    }
}
