package org.fixlab.bench;

import java.nio.charset.StandardCharsets;

/**
 * The message content every product sends, so all of them move the same fields: the seed 000
 * FIX 4.2 NewOrderSingle (ClientID, Price, OrderQty, TransactTime), its ExecutionReport, the small
 * order of the throughput stream (seed 003 keeps it near 78 bytes), and the FIX 4.4 order the
 * conversion scenario routes out.
 */
public final class Orders
{
    public static final String CLIENT = "C";
    public static final String SERVER = "S";
    /** CompIDs of the second conversion session (router to client, FIX 4.4). */
    public static final String CLIENT_OUT = "C2";
    public static final String SERVER_OUT = "S2";
    public static final String CLIENT_ID = "CLIENT1";
    public static final String SYMBOL = "EUR/USD";
    public static final String PRICE = "1.1234";
    public static final String QTY = "100";
    /**
     * TransactTime(60) of every order, as every client writes it: one constant, the raw socket's in its preformatted
     * bytes. Reading the application's clock per order is the application's cost, not the engine's, and it was not
     * the same in every client (a clock read and a date formatted per order cost fixlab's stream client a tenth of its
     * thread, while the raw socket and Artio wrote a constant).
     */
    public static final String TRANSACT_TIME = "20261120-23:30:00.123";
    /** TransactTime(60) of the small order, to the second as seed 003 sends it. */
    public static final String SMALL_TRANSACT_TIME = "20261120-23:30:00";
    /** FIX 4.2 Rule80A(47) becomes FIX 4.4 OrderCapacity(528) in the conversion scenario. */
    public static final int RULE80A = 47;
    public static final int ORDER_CAPACITY = 528;

    private Orders()
    {
    }

    /**
     * Preformatted bytes of a whole message with a valid BodyLength and CheckSum: what the
     * raw-socket baseline writes, and the size recorded in the manifest for every product.
     */
    public static byte[] frame(final String beginString, final String msgType, final String sender, final String target,
        final String body)
    {
        final String soh = "\u0001";
        final String inner = "35=" + msgType + soh + "34=1" + soh + "49=" + sender + soh + "56=" + target + soh
            + "52=20261120-23:30:00.123" + soh + body.replace('|', '\u0001');
        final String head = "8=" + beginString + soh + "9=" + inner.length() + soh;
        final byte[] withoutChecksum = (head + inner).getBytes(StandardCharsets.US_ASCII);
        int sum = 0;
        for (final byte b : withoutChecksum)
        {
            sum += b & 0xFF;
        }
        return (head + inner + String.format("10=%03d", sum % 256) + soh).getBytes(StandardCharsets.US_ASCII);
    }

    public static final String FIX42 = "FIX.4.2";
    public static final String FIX44 = "FIX.4.4";
    /** FIX 4.2 ClientID(109) becomes a Parties group entry with PartyRole(452)=3 (client ID) in FIX 4.4. */
    public static final String PARTY_CLIENT = "453=1|448=" + CLIENT_ID + "|447=D|452=3|";

    /** The FIX 4.2 order; the conversion scenario adds Rule80A(47)=A. */
    public static String orderBody(final int seq, final boolean conversion)
    {
        return "11=" + seq + "|21=1|109=" + CLIENT_ID + "|55=" + SYMBOL + "|54=1|60=" + TRANSACT_TIME + "|38=" + QTY
            + "|40=2|44=" + PRICE + "|" + (conversion ? RULE80A + "=A|" : "");
    }

    /** The FIX 4.4 order the router sends for a converted FIX 4.2 one. */
    public static String convertedBody(final int seq)
    {
        return "11=" + seq + "|21=1|55=" + SYMBOL + "|54=1|60=" + TRANSACT_TIME + "|38=" + QTY + "|40=2|44=" + PRICE + "|"
            + ORDER_CAPACITY + "=A|" + PARTY_CLIENT;
    }

    public static String smallOrderBody(final int seq)
    {
        return "11=" + seq + "|21=1|55=X|54=1|60=" + SMALL_TRANSACT_TIME + "|40=1|";
    }

    public static String reportBody(final int seq)
    {
        return "37=" + seq + "|17=" + seq + "|20=0|11=" + seq + "|109=" + CLIENT_ID + "|150=0|39=0|55=" + SYMBOL
            + "|54=1|151=" + QTY + "|14=0|6=0|38=" + QTY + "|44=" + PRICE + "|60=" + TRANSACT_TIME + "|";
    }

    /** Bytes of the message the client sends in a scenario, with a typical 6-digit ClOrdID and MsgSeqNum. */
    public static int requestBytes(final Scenario scenario)
    {
        final int seq = 123_456;
        final String body = scenario == Scenario.THROUGHPUT ? smallOrderBody(seq) : orderBody(seq, scenario == Scenario.CONVERSION);
        return frame(FIX42, "D", CLIENT, SERVER, body).length + 5;
    }
}
