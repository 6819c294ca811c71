package org.fixlab.engine.reliability;

import static org.fixlab.engine.reliability.RawFixPeer.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.OffsetEpochNanoClock;
import org.fixlab.engine.FixEngine;
import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;
import org.fixlab.engine.tools.EchoApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The message log of a balanced acceptor (on by default there) over real loopback TCP: every message
 * the peer sent and every message it received is a line of the session's file, in the order each
 * side saw them, resends and a garbled frame included, and the file is text: nothing a peer sends
 * can break a line or put a control character into it.
 */
class MessageLogSystemTest
{
    @TempDir
    Path storeDir;

    @Test
    void everyMessageBothWaysIsOneLineInOrderAndAGarbledFrameIsEscaped() throws IOException
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("storeDirectory", storeDir.toString())
            .set("messageLogDirectory", storeDir.resolve("log").toString())
            .set("tcpNoDelay", "true");
        assertTrue(configuration.bool("messageLog"), "balanced logs messages");
        final List<String> sent = new ArrayList<>();
        final List<String> received;
        try (FixEngine engine = new FixEngine(configuration, new OffsetEpochNanoClock(), SessionLog.SILENT))
        {
            engine.addAcceptorSession(new SessionId(FixVersion.FIX44, "ISLD", "TW"), new EchoApplication());
            final int port = engine.listen("127.0.0.1", 0);
            engine.start();
            try (RawFixPeer peer = new RawFixPeer(port, "FIX.4.4", "TW", "ISLD"))
            {
                sent.add(sendAndKeep(peer, peer.message("A", "98=0|108=30|")));
                peer.await("A", 5_000);
                for (int i = 1; i <= 20; i++)
                {
                    sent.add(sendAndKeep(peer, peer.message("D", "11=order-" + i + "|21=1|55=EUR/USD|54=1|60=20261124-12:00:00|38=100|40=1|")));
                    peer.await("D", 5_000);
                }
                // a frame whose CheckSum is wrong and whose text holds a line feed, an ESC sequence, markup and bytes beyond ASCII
                final String good = peer.message("D", "11=x|58=a\nb\u001b[2J<script>alert(1)</script>\u00ff|");
                final String garbled = good.substring(0, good.length() - 4) + (good.endsWith("000\u0001") ? "001" : "000") + "\u0001";
                sent.add(sendAndKeep(peer, garbled));
                peer.nextSeqNum(peer.nextSeqNum() - 1); // dropped unprocessed: its MsgSeqNum is still to come
                sent.add(sendAndKeep(peer, peer.message("2", "7=2|16=4|")));
                for (int seqNum = 2; seqNum <= 4; seqNum++)
                {
                    final String resent = peer.await("D", 5_000);
                    assertEquals("Y", field(resent, 43), "PossDupFlag of the resent order " + seqNum);
                }
                sent.add(sendAndKeep(peer, peer.message("5", "")));
                peer.await("5", 5_000);
                assertTrue(peer.awaitClosed(5_000), "closed after the Logout");
                received = List.copyOf(peer.received());
            }
        }
        final Path file = storeDir.resolve("log").resolve("FIX.4.4-ISLD-TW.messages.log");
        final byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < bytes.length; i++)
        {
            final int b = bytes[i] & 0xFF;
            assertTrue(b >= 0x20 && b <= 0x7E || b == 0x01 || b == '\n', "byte " + b + " at offset " + i + " of the log");
        }
        final List<String> inbound = new ArrayList<>();
        final List<String> outbound = new ArrayList<>();
        for (final String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1))
        {
            assertTrue(line.matches("\\d{8}-\\d{2}:\\d{2}:\\d{2}\\.\\d{6}: 8=FIX\\.4\\.4\u0001.*"), line);
            final String message = line.substring(line.indexOf(": ") + 2);
            (message.contains("\u000149=TW\u0001") ? inbound : outbound).add(message);
        }
        assertEquals(escaped(sent), inbound, "what the peer sent, in its order");
        assertEquals(received, outbound, "what the peer received, in its order");
        assertTrue(inbound.stream().anyMatch(m -> m.contains("58=a\\x0Ab\\x1B[2J<script>alert(1)</script>\\xFF")),
            "the garbled frame, escaped");
        assertEquals(3, outbound.stream().filter(m -> m.contains("\u000143=Y\u0001")).count(), "three resends");
    }

    private static String sendAndKeep(final RawFixPeer peer, final String message)
    {
        peer.send(message);
        return message;
    }

    /** The log's rendering of messages: bytes outside printable ASCII other than SOH as \xNN, a backslash doubled. */
    private static List<String> escaped(final List<String> messages)
    {
        final List<String> out = new ArrayList<>();
        for (final String message : messages)
        {
            final StringBuilder line = new StringBuilder();
            for (final char c : message.toCharArray())
            {
                if (c == '\\')
                {
                    line.append("\\\\");
                }
                else if (c != 0x01 && (c < 0x20 || c > 0x7E))
                {
                    line.append(String.format("\\x%02X", (int)c));
                }
                else
                {
                    line.append(c);
                }
            }
            out.add(line.toString());
        }
        return out;
    }
}
