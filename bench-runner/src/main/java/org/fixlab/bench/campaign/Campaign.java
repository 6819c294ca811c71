package org.fixlab.bench.campaign;

/** Placeholder: filled in below. */
public final class Campaign
{
    private Campaign()
    {
    }

    public static void main(final String[] args)
    {
    }
}
