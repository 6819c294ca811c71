package org.fixlab.engine.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.fixlab.engine.codec.TimestampPrecision;
import org.fixlab.engine.store.StoreType;
import org.fixlab.engine.store.SyncPolicy;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Presets, overrides from properties, and errors that name the key (and the file) at fault. */
class EngineConfigurationTest
{
    private static Properties properties(final String... keyValues)
    {
        final Properties properties = new Properties();
        for (int i = 0; i < keyValues.length; i += 2)
        {
            properties.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return properties;
    }

    private static String refusal(final String key, final String value)
    {
        return assertThrows(IllegalArgumentException.class, () -> EngineConfiguration.preset(Preset.BALANCED).set(key, value))
            .getMessage();
    }

    /** The trade-offs {@link Preset} documents: safety (balanced) against speed (optimized). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "BALANCED,  false, MAPPED, true,  backoff,   false, true",
        "OPTIMIZED, true,  MEMORY, false, busy-spin, true,  false",
    })
    void presetsDifferAsDocumented(final Preset preset, final boolean tcpNoDelay, final StoreType storeType, final boolean validation,
        final String idleStrategy, final boolean cpuAffinity, final boolean messageLog)
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(preset);
        assertEquals(messageLog, configuration.bool("messageLog"));

        assertEquals(tcpNoDelay, configuration.tcpNoDelay());
        assertEquals(storeType, configuration.storeType());
        assertEquals(SyncPolicy.NONE, configuration.storeSyncPolicy());
        assertEquals(validation, configuration.bool("validateChecksum"));
        assertEquals(validation, configuration.bool("validateGarbledMessage"));
        assertEquals(validation, configuration.bool("checkLatency"));
        assertEquals(IdleStrategyType.of(idleStrategy), configuration.idleStrategy());
        assertEquals(cpuAffinity, configuration.bool("cpuAffinity"));
    }

    @Test
    void theSessionTimersAreQuickFixJsInBothPresets()
    {
        for (final Preset preset : Preset.values())
        {
            final EngineConfiguration configuration = EngineConfiguration.preset(preset);
            assertEquals(0.5, configuration.testRequestDelayMultiplier());
            assertEquals(1.4, configuration.heartbeatTimeoutMultiplier());
            assertEquals(TimestampPrecision.MILLIS, configuration.timestampPrecision());
            assertTrue(configuration.bool("checkCompId"));
        }
    }

    @Test
    void fromPropertiesAppliesOverridesOnTopOfThePreset()
    {
        final EngineConfiguration configuration = EngineConfiguration.fromProperties(properties(
            "preset", "optimized", "storeType", "mapped", "heartbeatIntervalSeconds", " 5 ", "idleStrategy", "YIELDING",
            "timestampPrecision", "nanos", "checkLatency", "yes", "storeSyncPolicy", "Every-Message"));

        assertEquals(Preset.OPTIMIZED, configuration.presetName());
        assertEquals(StoreType.MAPPED, configuration.storeType());
        assertEquals("mapped", configuration.storeType().key(), "the name run manifests carry");
        assertEquals(SyncPolicy.EVERY_MESSAGE, configuration.storeSyncPolicy(), "enum values in any case");
        assertEquals(5, configuration.integer("heartbeatIntervalSeconds", 1, 100), "values are trimmed");
        assertEquals(IdleStrategyType.YIELDING, configuration.idleStrategy());
        assertEquals(TimestampPrecision.NANOS, configuration.timestampPrecision());
        assertTrue(configuration.bool("checkLatency"));
        assertTrue(configuration.tcpNoDelay(), "what is not overridden keeps the preset's value");
    }

    @Test
    void thePresetDefaultsToBalanced()
    {
        assertEquals(Preset.BALANCED, EngineConfiguration.fromProperties(new Properties()).presetName());
        final String message = assertThrows(IllegalArgumentException.class,
            () -> EngineConfiguration.fromProperties(properties("preset", "turbo"))).getMessage();
        assertTrue(message.contains("preset") && message.contains("turbo"), message);
    }

    @Test
    void anUnknownKeyIsRefusedByName()
    {
        final String message = assertThrows(IllegalArgumentException.class,
            () -> EngineConfiguration.fromProperties(properties("tcpNoDelai", "true"))).getMessage();

        assertTrue(message.contains("'tcpNoDelai'"), message);
        assertTrue(message.contains("tcpNoDelay"), "and lists the known keys: " + message);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "heartbeatIntervalSeconds, thirty, is not an integer",
        "heartbeatIntervalSeconds, 0,      out of range",
        "maxMessageSize,           512,    out of range",
        "cpuAffinityCpu,           -2,     out of range",
        "resendChunkMessages,      2000000, out of range",
        "slowReaderTimeoutMs,      0,      out of range",
        "socketSendBufferSize,     -1,     out of range",
        "idleStrategy,             fast,   unknown idle strategy",
        "storeType,                cloud,  not a store type",
        "storeSyncPolicy,          always, not a sync policy",
        "timestampPrecision,       picos,  not a precision",
        "tcpNoDelay,               maybe,  not a boolean",
        "testRequestDelayMultiplier, 0,    positive number",
        "heartbeatTimeoutMultiplier, NaN,  positive number",
        "heartbeatTimeoutMultiplier, x,    not a number",
    })
    void aBadValueIsRefusedNamingTheKeyAndTheValue(final String key, final String value, final String rule)
    {
        final String message = refusal(key, value);

        assertTrue(message.startsWith(key + ": "), message);
        assertTrue(message.contains(value), message);
        assertTrue(message.contains(rule), message);
    }

    @Test
    void aRefusedValueLeavesThePresetValueInPlace()
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.OPTIMIZED);

        assertThrows(IllegalArgumentException.class, () -> configuration.set("storeType", "cloud"));

        assertEquals(StoreType.MEMORY, configuration.storeType());
    }

    /** A refused value must not undo an earlier, valid override (it once put back the preset's default). */
    @Test
    void aRefusedValueLeavesAnEarlierOverrideInPlace()
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED).set("heartbeatIntervalSeconds", "5");

        assertThrows(IllegalArgumentException.class, () -> configuration.set("heartbeatIntervalSeconds", "0"));

        assertEquals("5", configuration.value("heartbeatIntervalSeconds"));
    }

    @Test
    void loadReadsAPropertiesFile(@TempDir final Path directory) throws IOException
    {
        final Path file = directory.resolve("engine.properties");
        Files.writeString(file, "# comment\npreset=optimized\ntcpNoDelay=false\n", StandardCharsets.ISO_8859_1);

        final EngineConfiguration configuration = EngineConfiguration.load(file);

        assertEquals(Preset.OPTIMIZED, configuration.presetName());
        assertFalse(configuration.tcpNoDelay());
    }

    @Test
    void loadErrorsNameTheFile(@TempDir final Path directory) throws IOException
    {
        final Path missing = directory.resolve("missing.properties");
        final String notFound = assertThrows(IllegalArgumentException.class, () -> EngineConfiguration.load(missing)).getMessage();
        assertTrue(notFound.startsWith(missing.toString()), notFound);

        final Path bad = directory.resolve("engine.properties");
        Files.writeString(bad, "maxLatencySeconds=soon\n", StandardCharsets.ISO_8859_1);
        final String badValue = assertThrows(IllegalArgumentException.class, () -> EngineConfiguration.load(bad)).getMessage();
        assertTrue(badValue.startsWith(bad + ": maxLatencySeconds: "), badValue);
    }

    @Test
    void describeAndEffectiveValuesListEveryOption()
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.OPTIMIZED).set("storeDirectory", "/var/fix");
        final String description = configuration.describe();

        assertTrue(description.startsWith("preset=optimized\n"), description);
        assertEquals(EngineConfiguration.options().size() + 1, configuration.effectiveValues().size());
        for (final EngineOption option : EngineConfiguration.options())
        {
            assertTrue(description.contains("\n" + option.key() + "="), () -> option.key() + " missing from describe()");
            assertTrue(configuration.effectiveValues().containsKey(option.key()), option.key());
            assertFalse(option.description().isBlank(), () -> option.key() + " has no description");
        }
        assertTrue(description.contains("\nstoreDirectory=/var/fix\n"), "the effective value, not the default");
        assertEquals("optimized", configuration.effectiveValues().get("preset"));
    }

    @Test
    void everyDefaultPassesItsOwnValidation()
    {
        for (final Preset preset : Preset.values())
        {
            final EngineConfiguration configuration = EngineConfiguration.preset(preset);
            for (final EngineOption option : EngineConfiguration.options())
            {
                configuration.set(option.key(), option.defaultFor(preset));
            }
        }
    }

    static Stream<Named<EngineOption>> everyOption()
    {
        return EngineConfiguration.options().stream().map(option -> Named.of(option.key(), option));
    }

    /**
     * Each option's kind takes both presets' defaults and refuses what its kind rules out, through
     * {@link EngineConfiguration#set}: an option registered with a kind that does not fit its values fails here.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyOption")
    void everyOptionsKindAcceptsItsDefaultsAndRefusesAWrongValueOfItsKind(final EngineOption option)
    {
        for (final Preset preset : Preset.values())
        {
            option.kind().validate(option.defaultFor(preset));
        }
        for (final String wrong : wrongValues(option))
        {
            final String message = refusal(option.key(), wrong);
            assertTrue(message.startsWith(option.key() + ": "), message);
        }
    }

    /** Values an option of this kind must refuse; a new kind has to be taught here before its options pass. */
    private static List<String> wrongValues(final EngineOption option)
    {
        final OptionKind kind = option.kind();
        if (kind instanceof OptionKind.Bool)
        {
            return List.of("maybe", "1");
        }
        if (kind instanceof OptionKind.IntRange range)
        {
            final List<String> wrong = new ArrayList<>(List.of("ten", "1.5", String.valueOf((long)range.min() - 1)));
            if (range.max() < Integer.MAX_VALUE)
            {
                wrong.add(String.valueOf(range.max() + 1));
            }
            if (range.powerOfTwo())
            {
                final int notAPowerOfTwo = Integer.highestOneBit(range.max()) - 1;
                assertTrue(notAPowerOfTwo >= range.min(), option.key());
                wrong.add(String.valueOf(notAPowerOfTwo));
            }
            else
            {
                range.validate(String.valueOf(range.min()));
                range.validate(String.valueOf(range.max()));
            }
            return wrong;
        }
        if (kind instanceof OptionKind.PositiveNumber)
        {
            return List.of("0", "-1.5", "Infinity", "NaN", "x");
        }
        if (kind instanceof OptionKind.Choice)
        {
            return List.of("no-such-value");
        }
        if (kind instanceof OptionKind.ListOf list)
        {
            return List.of("SSLv3", list.offered().get(0) + ",SSLv3");
        }
        if (kind instanceof OptionKind.Free)
        {
            // nothing is refused, so guard the other way: a default that reads as a boolean or a number wants that kind
            for (final Preset preset : Preset.values())
            {
                final String value = option.defaultFor(preset);
                assertThrows(IllegalArgumentException.class, () -> OptionKind.Bool.parse(value), option.key() + " looks boolean");
                assertThrows(NumberFormatException.class, () -> Double.parseDouble(value), option.key() + " looks numeric");
            }
            return List.of();
        }
        return fail(option.key() + ": no wrong value known for kind " + kind + "; add one to this test");
    }

    @Test
    void theMessageLogSitsBesideTheStoreUnlessToldOtherwiseAndItsRingIsAPowerOfTwoOfAtLeastOneMebibyte()
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED).set("storeDirectory", "state");
        assertEquals(Path.of("state"), configuration.messageLogDirectory());
        assertEquals(Path.of("audit"), configuration.set("messageLogDirectory", "audit").messageLogDirectory());
        assertEquals(org.fixlab.engine.messagelog.FieldDelimiter.PIPE, configuration.set("messageLogDelimiter", "pipe").messageLogDelimiter());
        assertEquals("messageLogDelimiter: 'tab' is not a delimiter (expected soh or pipe)", refusal("messageLogDelimiter", "tab"));
        assertEquals("messageLogBufferSize: '3145728' is not a power of two", refusal("messageLogBufferSize", "3145728"));
        assertTrue(refusal("messageLogBufferSize", "65536").startsWith("messageLogBufferSize: "), "below 1 MiB");
        assertEquals("messageLog: 'maybe' is not a boolean (true or false)", refusal("messageLog", "maybe"));
    }

    /** The portal's configuration page carries the table of every key, as the engine lists them, and no other version of a row. */
    @Test
    void theConfigurationPageListsEveryKeyAsTheEngineDoes() throws IOException
    {
        final Path page = Path.of("..", "site", "guide", "configuration.md");
        final String text = Files.readString(page, StandardCharsets.UTF_8);
        final String begin = "<!-- every-key table: begin -->\n";
        final String end = "<!-- every-key table: end -->";
        final String table = text.substring(text.indexOf(begin) + begin.length(), text.indexOf(end));
        assertEquals(org.fixlab.engine.tools.PrintConfiguration.referenceTable(), table,
            page + ": the table between the every-key markers is not PrintConfiguration's output; paste it from "
                + "java -cp engine/target/classes:... org.fixlab.engine.tools.PrintConfiguration");
    }

    @Test
    void tlsProtocolsAreTls13AndTls12Only()
    {
        assertEquals("TLSv1.2", EngineConfiguration.preset(Preset.BALANCED).set("tlsProtocols", "TLSv1.2").value("tlsProtocols"));
        assertEquals("tlsProtocols: 'TLSv1.1' is not offered (expected TLSv1.3 and/or TLSv1.2)", refusal("tlsProtocols", "TLSv1.3,TLSv1.1"));
        assertEquals("tlsNeedClientAuth: 'maybe' is not a boolean (true or false)", refusal("tlsNeedClientAuth", "maybe"));
    }

    @Test
    void passwordsAreMaskedWhereverTheConfigurationIsPrinted()
    {
        final EngineConfiguration configuration = EngineConfiguration.preset(Preset.BALANCED)
            .set("tlsKeyStorePassword", "s3cret").set("tlsTrustStorePassword", "");
        assertEquals("s3cret", configuration.value("tlsKeyStorePassword"), "the engine itself reads the real value");
        assertTrue(!configuration.describe().contains("s3cret") && configuration.describe().contains("tlsKeyStorePassword=********\n"));
        assertEquals("********", configuration.effectiveValues().get("tlsKeyStorePassword"));
        assertEquals("", configuration.effectiveValues().get("tlsTrustStorePassword"), "an empty password shows as empty");
    }
}
