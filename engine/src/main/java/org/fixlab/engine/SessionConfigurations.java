package org.fixlab.engine;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.fixlab.engine.codec.FixVersion;
import org.fixlab.engine.dictionary.DataDictionary;
import org.fixlab.engine.dictionary.DictionaryValidator;
import org.fixlab.engine.dictionary.ValidationOptions;

import org.fixlab.engine.config.EngineConfiguration;
import org.fixlab.engine.store.StoreOptions;
import org.fixlab.engine.session.SessionSettings;

/** Turns the engine-wide configuration into per-session settings and store options. */
final class SessionConfigurations
{
    private SessionConfigurations()
    {
    }

    static SessionSettings settingsFrom(final EngineConfiguration c)
    {
        final SessionSettings settings = new SessionSettings()
            .heartbeatIntervalSeconds(c.integer("heartbeatIntervalSeconds"))
            .resetOnLogon(c.bool("resetOnLogon"))
            .resetOnLogout(c.bool("resetOnLogout"))
            .resetOnDisconnect(c.bool("resetOnDisconnect"))
            .validateChecksum(c.bool("validateChecksum"))
            .validateGarbledMessage(c.bool("validateGarbledMessage"))
            .checkCompId(c.bool("checkCompId"))
            .checkLatency(c.bool("checkLatency"))
            .maxLatencySeconds(c.integer("maxLatencySeconds"))
            .testRequestDelayMultiplier(c.testRequestDelayMultiplier())
            .heartbeatTimeoutMultiplier(c.heartbeatTimeoutMultiplier())
            .logonTimeoutSeconds(c.integer("logonTimeoutSeconds"))
            .logoutTimeoutSeconds(c.integer("logoutTimeoutSeconds"))
            .timestampPrecision(c.timestampPrecision())
            .maxQueuedInboundBytes(c.integer("maxQueuedInboundBytes"))
            .resendChunkMessages(c.integer("resendChunkMessages"));
        return settings;
    }

    /** A validator for the session's version when the configuration asks for dictionary validation, else null. */
    static DictionaryValidator validatorFor(final EngineConfiguration c, final FixVersion version)
    {
        if (!c.bool("validateDictionary"))
        {
            return null;
        }
        final String file = c.value("dictionaryFile");
        final DataDictionary dictionary = file.isEmpty() ? DataDictionary.standard(version) : DataDictionary.load(Path.of(file));
        return new DictionaryValidator(dictionary,
            new ValidationOptions().validateUserDefinedFields(c.bool("validateUserDefinedFields")));
    }

    static StoreOptions storeOptions(final EngineConfiguration c)
    {
        return new StoreOptions()
            .syncPolicy(c.storeSyncPolicy())
            .syncIntervalNanos(TimeUnit.MILLISECONDS.toNanos(c.integer("storeSyncIntervalMs")))
            .memoryCapacityBytes(c.integer("memoryStoreCapacity"))
            .indexCapacity(c.integer("storeIndexCapacity"));
    }
}
