package org.fixlab.engine.config;

/** One documented option of {@code engine.properties}: its key, the values it accepts, its default in each preset, what it does. */
public record EngineOption(String key, OptionKind kind, String balancedDefault, String optimizedDefault, String description)
{
    public String defaultFor(final Preset preset)
    {
        return preset == Preset.OPTIMIZED ? optimizedDefault : balancedDefault;
    }
}
