package org.fixlab.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The fields of the order every client must hand its product: those the raw socket writes ({@link Orders#orderBody},
 * {@link Orders#smallOrderBody}), TransactTime included, as sorted "tag=value" strings, so that products that order
 * the body fields differently (QuickFIX/J by tag) compare equal.
 */
public final class OrderFields
{
    private OrderFields()
    {
    }

    public static List<String> expected(final int seq, final boolean small)
    {
        return of(small ? Orders.smallOrderBody(seq) : Orders.orderBody(seq, false), '|');
    }

    /** The body fields of {@code message}, its header (8, 9, 35, 34, 49, 52, 56) and trailer (10) left out. */
    public static List<String> of(final String message, final char delimiter)
    {
        final List<String> fields = new ArrayList<>();
        for (final String field : message.split(java.util.regex.Pattern.quote(String.valueOf(delimiter))))
        {
            final String tag = field.substring(0, Math.max(0, field.indexOf('=')));
            if (!field.isEmpty() && !List.of("8", "9", "35", "34", "49", "52", "56", "10").contains(tag))
            {
                fields.add(field);
            }
        }
        fields.sort(null);
        return fields;
    }
}
