package org.fixlab.engine.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A FIX counterparty written on a plain blocking socket, so that it can do what no engine would:
 * send half a message, lie about BodyLength, stop reading, never log on. Messages are built with
 * string arithmetic ('|' stands for SOH) and read back by BodyLength, trusting nothing of fixlab.
 */
final class RawFixPeer implements AutoCloseable
{
    static final char SOH = '\u0001';
    private static final DateTimeFormatter SENDING_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String beginString;
    private final String sender;
    private final String target;
    private final byte[] readBuffer = new byte[1 << 16];
    private final StringBuilder pending = new StringBuilder();
    private final List<String> received = new ArrayList<>();
    private boolean closedByPeer;
    private int nextSeqNum = 1;

    RawFixPeer(final int port, final String beginString, final String sender, final String target)
    {
        this(port, beginString, sender, target, 0);
    }

    /** @param receiveBufferSize SO_RCVBUF, 0 for the default (a peer that will stop reading wants it small). */
    RawFixPeer(final int port, final String beginString, final String sender, final String target, final int receiveBufferSize)
    {
        try
        {
            socket = new Socket();
            if (receiveBufferSize > 0)
            {
                socket.setReceiveBufferSize(receiveBufferSize);
            }
            socket.setTcpNoDelay(true);
            socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, ex);
        }
        this.beginString = beginString;
        this.sender = sender;
        this.target = target;
    }

    /** {@code "35=0|34=2|..."} framed: BeginString and BodyLength in front, CheckSum behind; a final '|' is added. */
    static String frame(final String beginString, final String fields)
    {
        String body = fields.replace('|', SOH);
        if (!body.endsWith(String.valueOf(SOH)))
        {
            body += SOH;
        }
        final String head = "8=" + beginString + SOH + "9=" + body.length() + SOH;
        return head + body + trailer(head + body);
    }

    /** {@code 10=nnn<SOH>} for these bytes. */
    static String trailer(final String message)
    {
        int sum = 0;
        for (final byte b : message.getBytes(StandardCharsets.ISO_8859_1))
        {
            sum += b & 0xFF;
        }
        return String.format("10=%03d", sum & 0xFF) + SOH;
    }

    /** A message of ours with the standard header and the next MsgSeqNum; {@code body} like {@code "112=T1|"}. */
    String message(final String msgType, final String body)
    {
        return frame(beginString, header(msgType, nextSeqNum++) + body);
    }

    /** The standard header fields (without 8 and 9) for an explicit MsgSeqNum, '|' separated. */
    String header(final String msgType, final int seqNum)
    {
        return "35=" + msgType + "|49=" + sender + "|56=" + target + "|34=" + seqNum + "|52=" + SENDING_TIME.format(Instant.now()) + "|";
    }

    int takeSeqNum()
    {
        return nextSeqNum++;
    }

    int nextSeqNum()
    {
        return nextSeqNum;
    }

    void nextSeqNum(final int seqNum)
    {
        nextSeqNum = seqNum;
    }

    String beginString()
    {
        return beginString;
    }

    /** Sends Logon and waits for the answer; fails the test if none comes. */
    String logon(final int heartBtInt)
    {
        send(message("A", "98=0|108=" + heartBtInt + "|"));
        return await("A", 5_000);
    }

    void send(final String text)
    {
        sendBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    void sendBytes(final byte[] bytes)
    {
        try
        {
            out.write(bytes);
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("write to the acceptor failed", ex);
        }
    }

    /** Writes, and says whether the acceptor took it all (false: it closed the connection while we wrote). */
    boolean trySendBytes(final byte[] bytes)
    {
        try
        {
            out.write(bytes);
            out.flush();
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /** The next message within the timeout, or null on timeout or when the peer closed (see {@link #isClosedByPeer}). */
    String next(final long timeoutMillis)
    {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true)
        {
            final String message = cutMessage();
            if (message != null)
            {
                received.add(message);
                return message;
            }
            final long remaining = deadline - System.currentTimeMillis();
            if (closedByPeer || remaining <= 0 || !read(remaining))
            {
                return null;
            }
        }
    }

    /** Reads until a message of this MsgType arrives; others are kept in {@link #received}. Fails on timeout or close. */
    String await(final String msgType, final long timeoutMillis)
    {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true)
        {
            final String message = next(Math.max(1, deadline - System.currentTimeMillis()));
            if (message == null)
            {
                fail((closedByPeer ? "connection closed" : "timed out") + " waiting for MsgType " + msgType + "; received " +
                    pipes(received));
            }
            if (msgType.equals(field(message, 35)))
            {
                return message;
            }
        }
    }

    /** True once the acceptor closed the connection within the timeout; messages before the close are kept. */
    boolean awaitClosed(final long timeoutMillis)
    {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!closedByPeer && System.currentTimeMillis() < deadline)
        {
            next(Math.max(1, deadline - System.currentTimeMillis()));
        }
        return closedByPeer;
    }

    boolean isClosedByPeer()
    {
        return closedByPeer;
    }

    /** Every message read so far. */
    List<String> received()
    {
        return received;
    }

    private boolean read(final long timeoutMillis)
    {
        try
        {
            socket.setSoTimeout((int)Math.min(Integer.MAX_VALUE, timeoutMillis));
            final int n = in.read(readBuffer);
            if (n < 0)
            {
                closedByPeer = true;
                return false;
            }
            pending.append(new String(readBuffer, 0, n, StandardCharsets.ISO_8859_1));
            return true;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final SocketException ex)
        {
            closedByPeer = true; // reset by the acceptor
            return false;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** One whole message from the front of what was read, by BodyLength, or null. */
    private String cutMessage()
    {
        final int bodyLengthField = pending.indexOf(SOH + "9=");
        if (bodyLengthField < 0)
        {
            return null;
        }
        final int bodyStart = pending.indexOf(String.valueOf(SOH), bodyLengthField + 1) + 1;
        if (bodyStart == 0)
        {
            return null;
        }
        final int bodyLength = Integer.parseInt(pending.substring(bodyLengthField + 3, bodyStart - 1));
        final int end = bodyStart + bodyLength + 7;
        if (pending.length() < end)
        {
            return null;
        }
        final String message = pending.substring(0, end);
        pending.delete(0, end);
        return message;
    }

    /** The value of the first field with this tag, or null. */
    static String field(final String message, final int tag)
    {
        final String key = tag + "=";
        final int start;
        if (message.startsWith(key))
        {
            start = key.length();
        }
        else
        {
            final int field = message.indexOf(SOH + key);
            if (field < 0)
            {
                return null;
            }
            start = field + 1 + key.length();
        }
        return message.substring(start, message.indexOf(SOH, start));
    }

    static String pipes(final Object text)
    {
        return String.valueOf(text).replace(SOH, '|');
    }

    @Override
    public void close()
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignored)
        {
            // the test is over with this peer either way
        }
    }

    /** Closes with SO_LINGER 0: the acceptor sees a reset, as when a cable is pulled and the stack gives up. */
    void reset()
    {
        try
        {
            socket.setSoLinger(true, 0);
        }
        catch (final IOException ignored)
        {
            // closing anyway
        }
        close();
    }
}
