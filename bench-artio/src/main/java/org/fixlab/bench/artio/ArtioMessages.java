package org.fixlab.bench.artio;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.fixlab.bench.Orders;
import org.fixlab.bench.artio.fix42.builder.ExecutionReportEncoder;
import org.fixlab.bench.artio.fix42.builder.NewOrderSingleEncoder;
import org.fixlab.bench.artio.fix42.decoder.NewOrderSingleDecoder;

/**
 * The benchmark's messages through Artio's generated codecs, with the fields of {@link Orders} (the same
 * content every product sends). Encoders are reused: only the per-order fields change, nothing is allocated.
 */
final class ArtioMessages
{
    private static final byte[] TRANSACT_TIME = Orders.TRANSACT_TIME.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SMALL_TRANSACT_TIME = Orders.SMALL_TRANSACT_TIME.getBytes(StandardCharsets.US_ASCII);
    private static final char[] CLIENT_ID = Orders.CLIENT_ID.toCharArray();

    private final byte[] id = new byte[12];
    private final UnsafeBuffer idBuffer = new UnsafeBuffer(id);
    private final NewOrderSingleEncoder order = new NewOrderSingleEncoder();
    private final NewOrderSingleEncoder smallOrder = new NewOrderSingleEncoder();
    private final ExecutionReportEncoder report = new ExecutionReportEncoder();
    private final org.fixlab.bench.artio.fix44.builder.NewOrderSingleEncoder converted =
        new org.fixlab.bench.artio.fix44.builder.NewOrderSingleEncoder();

    ArtioMessages()
    {
        order.handlInst('1').clientID(CLIENT_ID).symbol(Orders.SYMBOL).side('1').transactTime(TRANSACT_TIME)
            .orderQty(100, 0).ordType('2').price(11234, 4);
        smallOrder.handlInst('1').symbol("X").side('1').transactTime(SMALL_TRANSACT_TIME).ordType('1');
        report.execTransType('0').clientID(CLIENT_ID).execType('0').ordStatus('0').symbol(Orders.SYMBOL).side('1')
            .leavesQty(100, 0).cumQty(0, 0).avgPx(0, 0).orderQty(100, 0).price(11234, 4).transactTime(TRANSACT_TIME);
        converted.handlInst('1').side('1').transactTime(TRANSACT_TIME).ordType('2').price(11234, 4).orderCapacity('A');
        converted.instrument().symbol(Orders.SYMBOL);
        converted.orderQtyData().orderQty(100, 0);
        converted.parties().partyIDsGroup(1).partyID(CLIENT_ID).partyIDSource('D').partyRole(3);
    }

    /** The FIX 4.2 order number {@code seq} (Rule80A=A in the conversion scenario), or the throughput stream's small one. */
    NewOrderSingleEncoder order(final int seq, final boolean small, final boolean conversion)
    {
        final int length = idBuffer.putNaturalIntAscii(0, seq);
        if (small)
        {
            return smallOrder.clOrdID(id, length);
        }
        order.clOrdID(id, length);
        if (conversion)
        {
            order.rule80A('A');
        }
        return order;
    }

    /** The execution report answering an order: OrderID, ExecID and ClOrdID carry its ClOrdID. */
    ExecutionReportEncoder report(final NewOrderSingleDecoder from)
    {
        return report.orderID(from.clOrdID(), from.clOrdIDLength()).execID(from.clOrdID(), from.clOrdIDLength())
            .clOrdID(from.clOrdID(), from.clOrdIDLength());
    }

    /** The FIX 4.4 order for a FIX 4.2 one: ClientID(109) becomes a Parties entry, Rule80A(47) OrderCapacity(528). */
    org.fixlab.bench.artio.fix44.builder.NewOrderSingleEncoder converted(final NewOrderSingleDecoder from)
    {
        converted.clOrdID(from.clOrdID(), from.clOrdIDLength());
        converted.instrument().symbol(from.symbol(), from.symbolLength());
        converted.orderCapacity(from.rule80A());
        converted.parties().partyIDsGroup(1).partyID(from.clientID(), from.clientIDLength());
        return converted;
    }
}
