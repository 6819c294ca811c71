package org.fixlab.bench;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The scenarios of the data contract. Every one is driven by the client; the server either echoes
 * (answers each order with an execution report), counts (one-way stream) or routes (FIX 4.2 in,
 * FIX 4.4 out on a second session).
 */
public enum Scenario
{
    RTT_ECHO("rtt-echo", ServerMode.ECHO, "RoundTripLatencyBM"),
    THROUGHPUT("throughput", ServerMode.COUNT, "ThroughputBM"),
    INTERNAL_SEND("internal-send", ServerMode.ECHO, "InternalLatencyBM"),
    INTERNAL_RECEIVE("internal-receive", ServerMode.ECHO, "InternalLatencyBM"),
    INTERNAL_RECEIVE_SEND("internal-receive-send", ServerMode.ECHO, "InternalLatencyBM"),
    INTERNAL_SEND_RECEIVE("internal-send-receive", ServerMode.ECHO, "InternalLatencyBM"),
    CONVERSION("conversion-42-44", ServerMode.ROUTE, "ConversionBM");

    /** What the server side does with each inbound order. */
    public enum ServerMode
    {
        ECHO, COUNT, ROUTE
    }

    private final String id;
    private final ServerMode serverMode;
    private final String scriptSuffix;

    Scenario(final String id, final ServerMode serverMode, final String scriptSuffix)
    {
        this.id = id;
        this.serverMode = serverMode;
        this.scriptSuffix = scriptSuffix;
    }

    public String id()
    {
        return id;
    }

    public ServerMode serverMode()
    {
        return serverMode;
    }

    public boolean isInternal()
    {
        return id.startsWith("internal-");
    }

    /** Paced or closed-loop runs of this scenario measure a round trip through the server. */
    public boolean canPace()
    {
        return this == RTT_ECHO || this == CONVERSION;
    }

    /** The seed-style launch script for a role: runServerRoundTripLatencyBM, runClientThroughputBM... */
    public String script(final String role)
    {
        return "bench-runner/bin/run" + (role.equals("server") ? "Server" : "Client") + scriptSuffix;
    }

    public static Scenario of(final String id)
    {
        for (final Scenario scenario : values())
        {
            if (scenario.id.equals(id))
            {
                return scenario;
            }
        }
        throw new BenchException("unknown scenario '" + id + "' (expected one of " + ids() + ")");
    }

    public static String ids()
    {
        return Arrays.stream(values()).map(Scenario::id).collect(Collectors.joining(", "));
    }
}
