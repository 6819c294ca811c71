package org.fixlab.engine.reliability;

import static org.fixlab.engine.reliability.RawFixPeer.SOH;
import static org.fixlab.engine.reliability.RawFixPeer.field;
import static org.fixlab.engine.reliability.RawFixPeer.pipes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile or broken counterparty can send, over real sockets to an acceptor that also serves a
 * healthy session. Before Logon nothing is trusted: anything that is not a well-formed Logon for a
 * configured session closes the socket without a reply. After Logon the FIX rules apply: a garbled
 * message is dropped without using its MsgSeqNum (the next one reveals the gap and is answered with
 * a ResendRequest), a well-framed message with a bad field gets a Reject, and a message beyond the
 * configured maximum size closes the connection, after which the session logs on again with its
 * sequence numbers intact. After every case the healthy session still echoes an order and memory is
 * back within bounds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileInputTest
{
    /** Longer than any immediate close may take, so "closed at once" and "closed by the logon timeout" differ. */
    private static final int LOGON_TIMEOUT_SECONDS = 5;
    private static final long AT_ONCE_MILLIS = 2_000;
    private static final String TIME = "20240102-10:00:00.000";

    @TempDir
    Path dir;

    private AcceptorUnderAttack acceptor;

    @BeforeEach
    void start()
    {
        acceptor = new AcceptorUnderAttack(dir, c -> c.set("logonTimeoutSeconds", String.valueOf(LOGON_TIMEOUT_SECONDS)));
    }

    @AfterEach
    void stop()
    {
        try
        {
            acceptor.assertHealthy();
            acceptor.assertMemoryBounded();
        }
        finally
        {
            acceptor.close();
        }
    }

    // ---- before Logon: closed socket, no reply --------------------------------------------------------

    @Test
    void bodyLengthBeyondTheMaximumBeforeLogon()
    {
        assertClosedAtOnceWithoutReply("8=FIX.4.4|9=99999999|35=A|");
    }

    @Test
    void bodyLengthOfElevenDigitsBeforeLogon()
    {
        assertClosedAtOnceWithoutReply("8=FIX.4.4|9=12345678901|35=A|");
    }

    @Test
    void tagThatIsNotANumberInLogon()
    {
        assertClosedAtOnceWithoutReply(RawFixPeer.frame("FIX.4.4", "35=A|49=TW|56=ISLD|34=1|X52=" + TIME + "|98=0|108=30|"));
    }

    @Test
    void missingSohAfterBodyLengthInLogon()
    {
        final String logon = RawFixPeer.frame("FIX.4.4", "35=A|49=TW|56=ISLD|34=1|52=" + TIME + "|98=0|108=30|");
        final int afterBodyLength = logon.indexOf(SOH, logon.indexOf("9="));
        assertClosedAtOnceWithoutReply(logon.substring(0, afterBodyLength) + logon.substring(afterBodyLength + 1));
    }

    @Test
    void logonWithUnknownCompIds()
    {
        assertClosedAtOnceWithoutReply(RawFixPeer.frame("FIX.4.4", "35=A|49=NOBODY|56=ISLD|34=1|52=" + TIME + "|98=0|108=30|"));
    }

    @Test
    void logonWithCompIdsSwapped()
    {
        assertClosedAtOnceWithoutReply(RawFixPeer.frame("FIX.4.4", "35=A|49=ISLD|56=TW|34=1|52=" + TIME + "|98=0|108=30|"));
    }

    @Test
    void framedMessageOfOnlySohBeforeLogon()
    {
        assertClosedAtOnceWithoutReply(allSohFrame());
    }

    @Test
    void bodyLengthLongerThanTheMessageBeforeLogon()
    {
        // waits for bytes that never come: only the logon timeout ends it, and nothing is answered
        final String logon = RawFixPeer.frame("FIX.4.4", "35=A|49=TW|56=ISLD|34=1|52=" + TIME + "|98=0|108=30|");
        assertClosedByLogonTimeout(logon.replaceFirst("\u00019=\\d+\u0001", "\u00019=5000\u0001"));
    }

    @Test
    void streamOfOnlySohBeforeLogon()
    {
        final char[] soh = new char[64 * 1024];
        Arrays.fill(soh, SOH);
        assertClosedByLogonTimeout(new String(soh));
    }

    // ---- after Logon: the FIX rules ------------------------------------------------------------------

    @Test
    void bodyLengthBeyondTheMaximumAfterLogon()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int seqNum = peer.takeSeqNum();
        peer.send("8=FIX.4.4" + SOH + "9=99999999" + SOH + peer.header("D", seqNum).replace('|', SOH));
        assertClosedAtOnce(peer);
        assertLogsOnAgainWithNumbersIntact(peer, seqNum);
    }

    @Test
    void fieldOfAMegabyte()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int seqNum = peer.takeSeqNum();
        final String text = "x".repeat(1 << 20);
        final String order = RawFixPeer.frame("FIX.4.4", peer.header("D", seqNum) + "11=BIG|21=1|55=EUR/USD|54=1|60=" + TIME +
            "|38=100|40=2|44=1.1|58=" + text + "|");
        // the acceptor closes as soon as it reads BodyLength, so most of the megabyte may never be written
        peer.trySendBytes(order.getBytes(StandardCharsets.ISO_8859_1));
        assertClosedAtOnce(peer);
        assertLogsOnAgainWithNumbersIntact(peer, seqNum);
    }

    @Test
    void bodyLengthLongerThanTheMessageAfterLogon()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int lying = peer.takeSeqNum();
        final String honest = RawFixPeer.frame("FIX.4.4", peer.header("0", lying));
        final int claimed = Integer.parseInt(field(honest, 9)) + 300;
        final StringBuilder stream = new StringBuilder(honest.replaceFirst("\u00019=\\d+\u0001", "\u00019=" + claimed + "\u0001"));
        for (int i = 0; i < 6; i++)
        {
            stream.append(peer.message("0", ""));
        }
        peer.send(stream.toString());
        // the messages the lie swallowed are garbled, the next one shows the gap from the lying one on
        final String resendRequest = peer.await("2", 5_000);
        assertEquals(String.valueOf(lying), field(resendRequest, 7), () -> "ResendRequest " + pipes(resendRequest));
        assertSessionServesAfterGapFill(peer, lying);
    }

    @Test
    void tagThatIsNotANumberAfterLogon()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int garbled = peer.takeSeqNum();
        peer.send(RawFixPeer.frame("FIX.4.4", peer.header("D", garbled) + "11=G|21=1|5X5=EUR/USD|54=1|60=" + TIME +
            "|38=100|40=2|44=1.1|"));
        assertGarbledThenGapDetected(peer, garbled);
    }

    @Test
    void missingSohBetweenTwoBodyFields()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int seqNum = peer.takeSeqNum();
        // "38=100" and "40=2" run together: a well-framed message whose OrderQty is not a number
        peer.send(RawFixPeer.frame("FIX.4.4", peer.header("D", seqNum) + "11=S|21=1|55=EUR/USD|54=1|60=" + TIME +
            "|38=10040=2|44=1.1|"));
        final String reject = peer.await("3", 5_000);
        assertEquals(String.valueOf(seqNum), field(reject, 45), () -> "Reject " + pipes(reject));
        assertSessionServes(peer);
    }

    @Test
    void missingSohBeforeCheckSum()
    {
        assertMissingSohBeforeCheckSumIsGarbled();
    }

    @Test
    void missingSohBeforeCheckSumWithoutDictionary()
    {
        // the session's own framing checks, not the data dictionary's, must catch it
        acceptor.close();
        acceptor = new AcceptorUnderAttack(dir, c -> c.set("logonTimeoutSeconds", String.valueOf(LOGON_TIMEOUT_SECONDS))
            .set("validateDictionary", "false"));
        assertMissingSohBeforeCheckSumIsGarbled();
    }

    private void assertMissingSohBeforeCheckSumIsGarbled()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int garbled = peer.takeSeqNum();
        // BodyLength points at "10=", but the last field has no SOH and runs into it
        final String body = peer.header("0", garbled).replace('|', SOH) + "58=no end";
        final String message = "8=FIX.4.4" + SOH + "9=" + body.length() + SOH + body;
        peer.send(message + RawFixPeer.trailer(message));
        assertGarbledThenGapDetected(peer, garbled);
    }

    @Test
    void missingSohAfterCheckSum()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final int garbled = peer.takeSeqNum();
        final String first = RawFixPeer.frame("FIX.4.4", peer.header("0", garbled));
        // the next message is glued to the CheckSum: both are lost, the third one shows the gap
        peer.send(first.substring(0, first.length() - 1) + peer.message("0", ""));
        assertGarbledThenGapDetected(peer, garbled);
    }

    @Test
    void framedMessageOfOnlySohAfterLogon()
    {
        final RawFixPeer peer = loggedOnAttacker();
        peer.send(allSohFrame());
        // nothing in it, not even a MsgSeqNum: dropped without using a number
        assertSessionServes(peer);
        assertNoResendRequest(peer);
    }

    @Test
    void streamOfOnlySohAfterLogon()
    {
        final RawFixPeer peer = loggedOnAttacker();
        final char[] soh = new char[256 * 1024];
        Arrays.fill(soh, SOH);
        peer.send(new String(soh));
        assertSessionServes(peer);
        assertNoResendRequest(peer);
    }

    // ---- many at once --------------------------------------------------------------------------------

    @Test
    void logonFloodOfAThousandConnections() throws Exception
    {
        final int connections = 1_000;
        final List<Socket> silent = new ArrayList<>();
        final List<Socket> all = new ArrayList<>();
        final long start = System.nanoTime();
        for (int i = 0; i < connections; i++)
        {
            final Socket socket = new Socket();
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), acceptor.port()), 5_000);
            all.add(socket);
            if (i % 2 == 0)
            {
                silent.add(socket);
            }
            else
            {
                final String logon = RawFixPeer.frame("FIX.4.4", "35=A|49=FLOOD" + i + "|56=ISLD|34=1|52=" + TIME + "|98=0|108=30|");
                try
                {
                    socket.getOutputStream().write(logon.getBytes(StandardCharsets.ISO_8859_1));
                }
                catch (final java.io.IOException closedAlready)
                {
                    // refused at accept: over the pending-connection limit
                }
            }
            if (i % 100 == 99)
            {
                acceptor.assertHealthy();
            }
        }
        final long floodMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        int silentStillOpen = 0;
        for (final Socket socket : silent)
        {
            if (!isClosed(socket, 1))
            {
                silentStillOpen++;
            }
        }
        acceptor.assertHealthy();
        final long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(LOGON_TIMEOUT_SECONDS + 10);
        int closed = 0;
        for (final Socket socket : all)
        {
            if (isClosed(socket, Math.max(1, deadline - System.currentTimeMillis())))
            {
                closed++;
            }
            socket.close();
        }
        System.out.printf("logon flood: %d connections in %d ms, %d silent ones held at most (limit %d), all %d closed, " +
            "slowest healthy round trip %.1f ms%n", connections, floodMillis, silentStillOpen,
            AcceptorUnderAttack.MAX_PENDING_CONNECTIONS, closed, acceptor.slowestHealthyRoundTripNanos() / 1e6);
        assertTrue(silentStillOpen <= AcceptorUnderAttack.MAX_PENDING_CONNECTIONS,
            () -> "the acceptor held more connections without Logon than maxPendingConnections");
        assertEquals(connections, closed, "flood connections the acceptor never closed");
    }

    // ---- helpers -------------------------------------------------------------------------------------

    private static String allSohFrame()
    {
        final String head = "8=FIX.4.4" + SOH + "9=20" + SOH;
        final String message = head + String.valueOf(SOH).repeat(20);
        return message + RawFixPeer.trailer(message);
    }

    private RawFixPeer loggedOnAttacker()
    {
        final RawFixPeer peer = acceptor.attacker();
        peer.logon(30);
        return peer;
    }

    private void assertClosedAtOnceWithoutReply(final String bytes)
    {
        try (RawFixPeer peer = acceptor.attacker())
        {
            peer.trySendBytes(bytes.replace('|', SOH).getBytes(StandardCharsets.ISO_8859_1));
            acceptor.assertHealthy();
            assertClosedAtOnce(peer);
            assertEquals(List.of(), peer.received(), "a peer that never logged on got an answer");
        }
    }

    private void assertClosedByLogonTimeout(final String bytes)
    {
        try (RawFixPeer peer = acceptor.attacker())
        {
            final long start = System.nanoTime();
            peer.send(bytes);
            acceptor.assertHealthy();
            assertTrue(peer.awaitClosed(TimeUnit.SECONDS.toMillis(LOGON_TIMEOUT_SECONDS + 5)), "never closed");
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= TimeUnit.SECONDS.toMillis(LOGON_TIMEOUT_SECONDS) - 200,
                "closed after " + millis + " ms, before the logon timeout");
            assertEquals(List.of(), peer.received(), "a peer that never logged on got an answer");
        }
    }

    private static void assertClosedAtOnce(final RawFixPeer peer)
    {
        final long start = System.nanoTime();
        assertTrue(peer.awaitClosed(AT_ONCE_MILLIS), "the acceptor kept the connection open");
        assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(AT_ONCE_MILLIS));
    }

    /** The session did not die and did not lose its numbers: a fresh Logon continues both sequences. */
    private void assertLogsOnAgainWithNumbersIntact(final RawFixPeer previous, final int nextSeqNum)
    {
        final int lastFromAcceptor = Integer.parseInt(field(previous.received().get(previous.received().size() - 1), 34));
        previous.close();
        try (RawFixPeer again = acceptor.attacker())
        {
            again.nextSeqNum(nextSeqNum);
            final String logon = again.logon(30);
            assertEquals(String.valueOf(lastFromAcceptor + 1), field(logon, 34), () -> "Logon answer " + pipes(logon));
            assertSessionServes(again);
            assertNoResendRequest(again);
        }
    }

    private void assertGarbledThenGapDetected(final RawFixPeer peer, final int garbledSeqNum)
    {
        acceptor.assertHealthy();
        // nothing answers a garbled message; the next one in sequence reveals its number is missing
        peer.send(peer.message("1", "112=AFTER|"));
        final String resendRequest = peer.await("2", 5_000);
        assertEquals(String.valueOf(garbledSeqNum), field(resendRequest, 7), () -> "ResendRequest " + pipes(resendRequest));
        assertEquals(0, peer.received().stream().filter(m -> "3".equals(field(m, 35))).count(),
            () -> "a garbled message was rejected rather than ignored: " + pipes(peer.received()));
        assertSessionServesAfterGapFill(peer, garbledSeqNum);
    }

    /** Answers the acceptor's ResendRequest with a GapFill up to our next number; the session then serves again. */
    private void assertSessionServesAfterGapFill(final RawFixPeer peer, final int from)
    {
        peer.send(RawFixPeer.frame("FIX.4.4", peer.header("4", from) + "43=Y|122=" + TIME + "|123=Y|36=" + peer.nextSeqNum() + "|"));
        assertSessionServes(peer);
    }

    /** TestRequest answered by a Heartbeat with its TestReqID, on the attacked session. */
    private static void assertSessionServes(final RawFixPeer peer)
    {
        final String id = "T" + System.nanoTime();
        peer.send(peer.message("1", "112=" + id + "|"));
        final long deadline = System.currentTimeMillis() + 5_000;
        while (true)
        {
            final String heartbeat = peer.await("0", Math.max(1, deadline - System.currentTimeMillis()));
            if (id.equals(field(heartbeat, 112)))
            {
                return;
            }
        }
    }

    private static void assertNoResendRequest(final RawFixPeer peer)
    {
        assertNull(peer.received().stream().filter(m -> "2".equals(field(m, 35))).findFirst().map(RawFixPeer::pipes).orElse(null),
            "a ResendRequest, though no MsgSeqNum was used");
    }

    /** True when the acceptor closed the socket (EOF or reset) within the timeout. */
    private static boolean isClosed(final Socket socket, final long timeoutMillis)
    {
        try
        {
            socket.setSoTimeout((int)timeoutMillis);
            final byte[] buffer = new byte[4096];
            while (true)
            {
                if (socket.getInputStream().read(buffer) < 0)
                {
                    return true;
                }
            }
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final java.io.IOException ex)
        {
            return true;
        }
    }
}
