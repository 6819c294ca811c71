package org.fixlab.bench.fixlab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.fixlab.bench.OrderFields;
import org.fixlab.bench.Scenario;
import org.fixlab.bench.client.Replies;
import org.fixlab.engine.codec.MessageEncoder;
import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.config.Preset;
import org.junit.jupiter.api.Test;

class FixlabClientPeerTest
{
    /**
     * The raw socket's fields, TransactTime one constant and not the application's clock (a clock read and a date
     * formatted per order cost this client a tenth of its thread in a stream, and the raw socket and Artio paid
     * nothing). The orders are built milliseconds apart, so a client that read the clock would fail.
     */
    @Test
    void everyOrderCarriesTheRawSocketsFields() throws InterruptedException
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.OPTIMIZED).set("cpuAffinity", "false");
        try (FixlabClientPeer peer = new FixlabClientPeer(configuration, Scenario.THROUGHPUT, new Replies(16)))
        {
            for (final boolean small : new boolean[] {false, true})
            {
                for (int seq = 41; seq <= 43; seq++)
                {
                    Thread.sleep(3);
                    final MessageEncoder order = peer.order(seq, small);
                    final byte[] body = new byte[order.bodyLength()];
                    order.body().getBytes(0, body);
                    assertEquals(OrderFields.expected(seq, small),
                        OrderFields.of(new String(body, StandardCharsets.US_ASCII), '\u0001'), "order " + seq + (small ? ", small" : ""));
                }
            }
        }
    }
}
