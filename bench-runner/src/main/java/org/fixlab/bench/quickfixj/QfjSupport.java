package org.fixlab.bench.quickfixj;

import java.nio.file.Path;

import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;
import org.fixlab.bench.run.ScratchDirectory;

import quickfix.DefaultMessageFactory;
import quickfix.FileStoreFactory;
import quickfix.MemoryStoreFactory;
import quickfix.MessageStoreFactory;
import quickfix.ScreenLogFactory;
import quickfix.SessionID;
import quickfix.SessionSettings;

/**
 * The QuickFIX/J set-up both sides share: the seed 000 port's settings (default = FileStoreFactory,
 * optimized = MemoryStoreFactory and no dictionary validation, TCP_NODELAY on in both), and a MINA
 * filter next to the socket that timestamps raw reads (t3) and writes (t2), since QuickFIX/J itself
 * exposes neither.
 */
final class QfjSupport
{
    private QfjSupport()
    {
    }

    /**
     * Sits first in the MINA chain (before QuickFIX/J's codec): messageReceived sees the bytes as read,
     * filterWrite sees the encoded bytes as they are handed to the I/O processor for the socket write.
     */
    static final class TimestampFilter extends IoFilterAdapter
    {
        volatile long readNanos;
        volatile long writeNanos;
        /** The connection, once something was written on it: what it has queued and not yet written is the back-pressure. */
        volatile IoSession session;

        @Override
        public void messageReceived(final NextFilter next, final IoSession session, final Object message) throws Exception
        {
            readNanos = System.nanoTime();
            next.messageReceived(session, message);
        }

        @Override
        public void filterWrite(final NextFilter next, final IoSession session, final WriteRequest request) throws Exception
        {
            writeNanos = System.nanoTime();
            this.session = session;
            next.filterWrite(session, request);
        }
    }

    static final String METHOD = "quickfixj: t1 System.nanoTime() before Session.send/sendToTarget, t2 in a MINA filter's "
        + "filterWrite next to the socket (encoded bytes handed to the I/O processor), t3 in that filter's messageReceived "
        + "(bytes read), t4 System.nanoTime() in Application.fromApp";

    /** The sessions of one side: the client (initiator) connects to host:port, the server (acceptor) listens on it. */
    static SessionSettings settings(final QuickfixjProduct.Config config, final boolean initiator, final String host, final int port,
        final SessionID... ids)
    {
        final SessionSettings settings = new SessionSettings();
        final Path store = ScratchDirectory.deletedAtExit("qfj-bench-store");
        for (final SessionID id : ids)
        {
            settings.setString(id, "StartTime", "00:00:00");
            settings.setString(id, "EndTime", "00:00:00");
            settings.setString(id, "NonStopSession", "Y");
            settings.setString(id, "UseDataDictionary", config.dictionary() ? "Y" : "N");
            settings.setString(id, "DataDictionary", id.getBeginString().replace(".", "") + ".xml");
            settings.setString(id, "ResetOnLogon", "Y");
            settings.setString(id, "PersistMessages", config.fileStore() ? "Y" : "N");
            settings.setString(id, "FileStorePath", store.toString());
            settings.setString(id, "SocketTcpNoDelay", "Y");
            settings.setString(id, "HeartBtInt", "30");
            settings.setString(id, "ReconnectInterval", "1");
            settings.setString(id, "ConnectionType", initiator ? "initiator" : "acceptor");
            settings.setString(id, initiator ? "SocketConnectHost" : "SocketAcceptAddress", host);
            settings.setLong(id, initiator ? "SocketConnectPort" : "SocketAcceptPort", port);
        }
        return settings;
    }

    static MessageStoreFactory store(final QuickfixjProduct.Config config, final SessionSettings settings)
    {
        return config.fileStore() ? new FileStoreFactory(settings) : new MemoryStoreFactory();
    }

    static ScreenLogFactory silentLog()
    {
        return new ScreenLogFactory(false, false, false);
    }

    static DefaultMessageFactory messages()
    {
        return new DefaultMessageFactory();
    }
}
