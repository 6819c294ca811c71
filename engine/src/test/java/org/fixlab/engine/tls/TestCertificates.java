package org.fixlab.engine.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.fixlab.engine.config.EngineConfiguration;

/**
 * Test-only key material, made fresh in a temporary folder by the running JDK's {@code keytool}
 * (self-signed EC certificates valid for two days, PKCS12, one password). Nothing here is a
 * secret or leaves the test.
 * <ul>
 * <li>{@code server.p12}: the acceptor's certificate, named {@code localhost} only (no IP address),
 * so connecting to 127.0.0.1 with host name verification fails;</li>
 * <li>{@code client.p12}: a client certificate for acceptors that require one;</li>
 * <li>{@code stranger.p12}: a certificate no trust store here contains;</li>
 * <li>{@code trust.p12}: trusts the server and client certificates (not the stranger).</li>
 * </ul>
 */
public final class TestCertificates
{
    public static final String PASSWORD = "test-only-password";

    public final Path server;
    public final Path client;
    public final Path stranger;
    public final Path trust;

    private TestCertificates(final Path dir)
    {
        server = dir.resolve("server.p12");
        client = dir.resolve("client.p12");
        stranger = dir.resolve("stranger.p12");
        trust = dir.resolve("trust.p12");
    }

    public static TestCertificates create(final Path dir) throws IOException, InterruptedException
    {
        final TestCertificates certificates = new TestCertificates(dir);
        keyPair(certificates.server, "server", "CN=localhost", "SAN=dns:localhost");
        keyPair(certificates.client, "client", "CN=fixlab-test-client", null);
        keyPair(certificates.stranger, "stranger", "CN=fixlab-test-stranger", "SAN=dns:localhost,ip:127.0.0.1");
        trust(certificates.trust, certificates.server, "server", dir);
        trust(certificates.trust, certificates.client, "client", dir);
        return certificates;
    }

    /** An acceptor presenting {@code keyStore}. */
    public EngineConfiguration acceptor(final EngineConfiguration configuration, final Path keyStore)
    {
        return configuration.set("tlsEnabled", "true").set("tlsKeyStore", keyStore.toString())
            .set("tlsKeyStorePassword", PASSWORD).set("tlsTrustStore", trust.toString()).set("tlsTrustStorePassword", PASSWORD);
    }

    /** An initiator trusting {@code trustStore}, without a client certificate. */
    public EngineConfiguration initiator(final EngineConfiguration configuration, final Path trustStore)
    {
        return configuration.set("tlsEnabled", "true").set("tlsTrustStore", trustStore.toString())
            .set("tlsTrustStorePassword", PASSWORD);
    }

    private static void keyPair(final Path store, final String alias, final String dname, final String extension)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname",
            "secp256r1", "-dname", dname, "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
            "-storepass", PASSWORD, "-keypass", PASSWORD));
        if (extension != null)
        {
            command.add("-ext");
            command.add(extension);
        }
        keytool(command);
    }

    private static void trust(final Path trustStore, final Path keyStore, final String alias, final Path dir)
        throws IOException, InterruptedException
    {
        final Path certificate = dir.resolve(alias + ".cer");
        keytool(List.of("-exportcert", "-alias", alias, "-keystore", keyStore.toString(), "-storepass", PASSWORD,
            "-file", certificate.toString()));
        keytool(List.of("-importcert", "-noprompt", "-alias", alias, "-file", certificate.toString(), "-storetype", "PKCS12",
            "-keystore", trustStore.toString(), "-storepass", PASSWORD));
    }

    private static void keytool(final List<String> arguments) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(arguments);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new IllegalStateException("keytool " + arguments + " failed: " + output);
        }
    }
}
