package org.fixlab.engine.tools;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.session.SessionId;

/**
 * An acceptor any FIX client can be pointed at: FIX.4.2 and FIX.4.4 sessions ISLD/TW on one port,
 * the echo application behind them. It is what the conformance suite runs against, configured
 * entirely from an engine.properties file.
 *
 * <pre>java ... ConformanceAcceptor --port 9880 --config engine/conformance.properties</pre>
 */
public final class ConformanceAcceptor
{
    private ConformanceAcceptor()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final Arguments arguments = Arguments.parse(args, "ConformanceAcceptor --port PORT [--host HOST] [--config FILE]");
        final int port = arguments.intValue("port", 9880);
        final String host = arguments.value("host", "0.0.0.0");
        final EngineConfiguration configuration = arguments.has("config") ?
            EngineConfiguration.load(Path.of(arguments.value("config", null))) :
            EngineConfiguration.fromProperties(new java.util.Properties());

        final FixEngine engine = new FixEngine(configuration);
        final EchoApplication application = new EchoApplication();
        for (final FixVersion version : FixVersion.values())
        {
            engine.addAcceptorSession(new SessionId(version, "ISLD", "TW"), application);
        }
        final int boundPort = engine.listen(host, port);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            engine.close();
            stopped.countDown();
        }, "fixlab-shutdown"));
        engine.start();
        System.out.println("fixlab acceptor pid=" + ProcessHandle.current().pid() + " port=" + boundPort +
            " sessions=FIX.4.2,FIX.4.4 ISLD<-TW (" + engine.threadPlacement() + ")");
        System.out.flush();
        stopped.await();
    }
}
