package org.fixlab.bench;

/** Placeholder until the runners land. */
final class BenchPlaceholder
{
}
