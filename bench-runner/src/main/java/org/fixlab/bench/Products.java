package org.fixlab.bench;

import java.util.List;
import java.util.stream.Collectors;

import org.fixlab.bench.artio.ArtioProduct;
import org.fixlab.bench.fixlab.FixlabProduct;
import org.fixlab.bench.quickfixj.QuickfixjProduct;
import org.fixlab.bench.raw.RawSocketProduct;

/**
 * The registry: every product the runner measures, in the order campaigns run them and pages show
 * them (ours, the peers, the floor). The one list to add a product to.
 */
public final class Products
{
    public static final List<Product> ALL = List.of(new FixlabProduct(), new ArtioProduct(), new QuickfixjProduct(),
        new RawSocketProduct());

    private Products()
    {
    }

    public static Product of(final String id)
    {
        for (final Product product : ALL)
        {
            if (product.id().equals(id))
            {
                return product;
            }
        }
        throw new BenchException("unknown product '" + id + "' (expected one of " + ids() + ")");
    }

    public static String ids()
    {
        return ALL.stream().map(Product::id).collect(Collectors.joining(", "));
    }

    /** The product's place in {@link #ALL}: the manifest records it so pages order products from the data. */
    public static int order(final Product product)
    {
        return ALL.indexOf(product);
    }
}
