package org.fixlab.engine.interop;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import quickfix.ApplicationAdapter;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketAcceptor;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;

/**
 * The real QuickFIX/J, from Maven Central, as the counterparty in interoperability tests: an
 * acceptor that answers orders with execution reports, or an initiator that sends orders. It
 * records every ClOrdID it sees and notes repeats that arrive without PossDupFlag.
 */
final class QuickFixJPeer extends ApplicationAdapter implements AutoCloseable
{
    final Set<String> ordersReceived = ConcurrentHashMap.newKeySet();
    final Set<String> reportsReceived = ConcurrentHashMap.newKeySet();
    final AtomicInteger repeatsWithoutPossDup = new AtomicInteger();
    final AtomicInteger logons = new AtomicInteger();
    private final SessionID sessionId;
    private final boolean answerOrders;
    private quickfix.Connector connector;

    private QuickFixJPeer(final SessionID sessionId, final boolean answerOrders)
    {
        this.sessionId = sessionId;
        this.answerOrders = answerOrders;
    }

    static QuickFixJPeer acceptor(final String beginString, final String sender, final String target, final int port)
        throws Exception
    {
        return acceptor(beginString, sender, target, port, Map.of());
    }

    /** @param extra QuickFIX/J session settings applied last, e.g. SocketUseSSL and its key stores. */
    static QuickFixJPeer acceptor(final String beginString, final String sender, final String target, final int port,
        final Map<String, String> extra) throws Exception
    {
        final SessionID id = new SessionID(beginString, sender, target);
        final QuickFixJPeer peer = new QuickFixJPeer(id, true);
        final SessionSettings settings = commonSettings(id);
        settings.setString(id, "ConnectionType", "acceptor");
        settings.setLong(id, "SocketAcceptPort", port);
        settings.setString(id, "SocketAcceptAddress", "127.0.0.1");
        extra.forEach((key, value) -> settings.setString(id, key, value));
        peer.connector = new SocketAcceptor(peer, new MemoryStoreFactory(), settings, new ScreenLogFactory(false, false, false),
            new DefaultMessageFactory());
        peer.connector.start();
        return peer;
    }

    static QuickFixJPeer initiator(final String beginString, final String sender, final String target, final int port)
        throws Exception
    {
        return initiator(beginString, sender, target, port, Map.of());
    }

    /** @param extra QuickFIX/J session settings applied last, e.g. SocketUseSSL, its trust store, SocketConnectHost. */
    static QuickFixJPeer initiator(final String beginString, final String sender, final String target, final int port,
        final Map<String, String> extra) throws Exception
    {
        final SessionID id = new SessionID(beginString, sender, target);
        final QuickFixJPeer peer = new QuickFixJPeer(id, false);
        final SessionSettings settings = commonSettings(id);
        settings.setString(id, "ConnectionType", "initiator");
        settings.setString(id, "SocketConnectHost", "127.0.0.1");
        settings.setLong(id, "SocketConnectPort", port);
        settings.setLong(id, "HeartBtInt", 30);
        settings.setLong(id, "ReconnectInterval", 1);
        extra.forEach((key, value) -> settings.setString(id, key, value));
        peer.connector = new SocketInitiator(peer, new MemoryStoreFactory(), settings, new ScreenLogFactory(false, false, false),
            new DefaultMessageFactory());
        peer.connector.start();
        return peer;
    }

    private static SessionSettings commonSettings(final SessionID id)
    {
        final SessionSettings settings = new SessionSettings();
        settings.setString(id, "StartTime", "00:00:00");
        settings.setString(id, "EndTime", "00:00:00");
        settings.setString(id, "NonStopSession", "Y");
        settings.setString(id, "UseDataDictionary", "Y");
        settings.setString(id, "DataDictionary", id.getBeginString().replace(".", "") + ".xml");
        settings.setString(id, "ResetOnLogon", "N");
        settings.setString(id, "PersistMessages", "Y");
        return settings;
    }

    Session session()
    {
        return Session.lookupSession(sessionId);
    }

    boolean isLoggedOn()
    {
        final Session session = session();
        return session != null && session.isLoggedOn();
    }

    void send(final Message message) throws SessionNotFound
    {
        Session.sendToTarget(message, sessionId);
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionID) throws FieldNotFound
    {
        final String type = message.getHeader().getString(MsgType.FIELD);
        final String clOrdId = message.getString(11);
        final boolean possDup = message.getHeader().isSetField(43) && message.getHeader().getBoolean(43);
        final Set<String> seen = "D".equals(type) ? ordersReceived : reportsReceived;
        if (!seen.add(clOrdId) && !possDup)
        {
            repeatsWithoutPossDup.incrementAndGet();
        }
        if (answerOrders && "D".equals(type))
        {
            try
            {
                Session.sendToTarget(InteropMessages.executionReport(sessionID.getBeginString(), clOrdId), sessionID);
            }
            catch (final SessionNotFound ex)
            {
                throw new IllegalStateException(ex);
            }
        }
    }

    @Override
    public void onLogon(final SessionID sessionID)
    {
        logons.incrementAndGet();
    }

    @Override
    public void close()
    {
        connector.stop(true);
    }
}
