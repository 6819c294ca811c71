package org.fixlab.engine.interop;

import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.codec.TimestampPrecision;

import quickfix.Message;
import quickfix.field.MsgType;

/** The same NewOrderSingle and ExecutionReport, built for fixlab and for QuickFIX/J. */
final class InteropMessages
{
    private InteropMessages()
    {
    }

    static MessageEncoder newOrderSingle(final MessageEncoder encoder, final String clOrdId)
    {
        return encoder.reset('D').append(11, clOrdId).append(21, '1').append(55, "EUR/USD").append(54, '1')
            .appendTimestamp(60, System.currentTimeMillis() * 1_000_000L, TimestampPrecision.MILLIS)
            .appendDecimal(38, 100, 0).append(40, '2').appendDecimal(44, 11_234, 4);
    }

    static MessageEncoder executionReport(final MessageEncoder encoder, final boolean fix42, final String clOrdId,
        final long execId)
    {
        encoder.reset('8').append(37, "O" + clOrdId).append(11, clOrdId).append(17, execId);
        if (fix42)
        {
            encoder.append(20, '0'); // ExecTransType exists only up to FIX.4.2
        }
        return encoder.append(150, '0').append(39, '0').append(55, "EUR/USD").append(54, '1')
            .appendDecimal(151, 100, 0).appendDecimal(14, 0, 0).appendDecimal(6, 0, 0)
            .appendTimestamp(60, System.currentTimeMillis() * 1_000_000L, TimestampPrecision.MILLIS);
    }

    static Message newOrderSingle(final String beginString, final String clOrdId)
    {
        final Message order = new Message();
        order.getHeader().setString(8, beginString);
        order.getHeader().setString(MsgType.FIELD, "D");
        order.setString(11, clOrdId);
        order.setChar(21, '1');
        order.setString(55, "EUR/USD");
        order.setChar(54, '1');
        order.setUtcTimeStamp(60, LocalDateTime.now(ZoneOffset.UTC));
        order.setInt(38, 100);
        order.setChar(40, '2');
        order.setDouble(44, 1.1234);
        return order;
    }

    static Message executionReport(final String beginString, final String clOrdId)
    {
        final Message report = new Message();
        report.getHeader().setString(8, beginString);
        report.getHeader().setString(MsgType.FIELD, "8");
        report.setString(37, "O" + clOrdId);
        report.setString(11, clOrdId);
        report.setString(17, "E" + clOrdId);
        if ("FIX.4.2".equals(beginString))
        {
            report.setChar(20, '0');
        }
        report.setChar(150, '0');
        report.setChar(39, '0');
        report.setString(55, "EUR/USD");
        report.setChar(54, '1');
        report.setInt(151, 100);
        report.setInt(14, 0);
        report.setDouble(6, 0);
        report.setUtcTimeStamp(60, LocalDateTime.now(ZoneOffset.UTC));
        return report;
    }
}
