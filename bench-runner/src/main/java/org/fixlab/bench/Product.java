package org.fixlab.bench;

import java.util.List;

/** The products measured side by side, and the configurations each one is run in. */
public enum Product
{
    FIXLAB("fixlab", List.of("balanced", "optimized", "optimized-file", "optimized-mmap")),
    QUICKFIXJ("quickfixj", List.of("default", "optimized")),
    RAW_SOCKET("raw-socket", List.of("busy-spin"));

    private final String id;
    private final List<String> configurations;

    Product(final String id, final List<String> configurations)
    {
        this.id = id;
        this.configurations = configurations;
    }

    public String id()
    {
        return id;
    }

    public List<String> configurations()
    {
        return configurations;
    }

    public String defaultConfiguration()
    {
        return configurations.get(configurations.size() > 1 ? 1 : 0);
    }

    public static Product of(final String id)
    {
        for (final Product product : values())
        {
            if (product.id.equals(id))
            {
                return product;
            }
        }
        throw new BenchException("unknown product '" + id + "' (expected fixlab, quickfixj or raw-socket)");
    }
}
