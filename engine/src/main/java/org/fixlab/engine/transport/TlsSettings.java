package org.fixlab.engine.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

import org.fixlab.engine.config.EngineConfiguration;

/**
 * TLS for every connection of an engine, read once from the {@code tls*} options: the
 * {@link SSLContext} built from the key store and trust store, the protocols and cipher suites,
 * client-certificate authentication on the acceptor and host name verification on the initiator.
 * Each connection gets its own {@link SSLEngine} from {@link #newEngine}. A store that cannot be
 * read, or a protocol or cipher suite the JDK does not offer, fails the engine's construction with a
 * message naming the option.
 */
public final class TlsSettings
{
    private final SSLContext context;
    private final String[] protocols;
    /** Null: the JDK's enabled suites, in its order. */
    private final String[] cipherSuites;
    private final boolean needClientAuth;
    private final boolean verifyHostname;
    private final boolean hasKeyStore;

    private TlsSettings(final SSLContext context, final String[] protocols, final String[] cipherSuites,
        final boolean needClientAuth, final boolean verifyHostname, final boolean hasKeyStore)
    {
        this.context = context;
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
        this.needClientAuth = needClientAuth;
        this.verifyHostname = verifyHostname;
        this.hasKeyStore = hasKeyStore;
    }

    /** The engine's TLS, or null when {@code tlsEnabled} is false. */
    public static TlsSettings from(final EngineConfiguration c)
    {
        if (!c.bool("tlsEnabled"))
        {
            return null;
        }
        final String keyStorePath = c.value("tlsKeyStore");
        final String trustStorePath = c.value("tlsTrustStore");
        try
        {
            KeyManager[] keyManagers = null;
            if (!keyStorePath.isEmpty())
            {
                final char[] password = c.value("tlsKeyStorePassword").toCharArray();
                final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load("tlsKeyStore", keyStorePath, c.value("tlsKeyStoreType"), password), password);
                keyManagers = keys.getKeyManagers();
            }
            // no trust store: the JDK's default (cacerts, or javax.net.ssl.trustStore)
            TrustManager[] trustManagers = null;
            if (!trustStorePath.isEmpty())
            {
                final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(load("tlsTrustStore", trustStorePath, c.value("tlsTrustStoreType"),
                    c.value("tlsTrustStorePassword").toCharArray()));
                trustManagers = trust.getTrustManagers();
            }
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers, trustManagers, null);
            final String[] protocols = c.value("tlsProtocols").split("\\s*,\\s*");
            requireOffered("tlsProtocols", protocols, context.getSupportedSSLParameters().getProtocols());
            return new TlsSettings(context, protocols, cipherSuites(c.value("tlsCipherSuites"), protocols, context),
                c.bool("tlsNeedClientAuth"), c.bool("tlsVerifyHostname"), keyManagers != null);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException("TLS cannot be set up from tlsKeyStore/tlsTrustStore: " + ex.getMessage(), ex);
        }
    }

    /**
     * The suites of {@code tlsCipherSuites}, or null when it is empty. Each must be one this JDK supports, and at
     * least one must serve a protocol of {@code tlsProtocols}, else no handshake could ever complete: the JDK's TLS
     * 1.3 suites are TLS_AES_* and TLS_CHACHA20_*, its TLS 1.2 ones have "_WITH_" in their name
     * (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256), and a signalling value (TLS_EMPTY_RENEGOTIATION_INFO_SCSV) serves none.
     */
    private static String[] cipherSuites(final String value, final String[] protocols, final SSLContext context)
    {
        if (value.isBlank())
        {
            return null;
        }
        final String[] suites = value.trim().split("\\s*,\\s*");
        requireOffered("tlsCipherSuites", suites, context.getSupportedSSLParameters().getCipherSuites());
        for (final String suite : suites)
        {
            final String protocol = suite.contains("_WITH_") ? "TLSv1.2"
                : suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_") ? "TLSv1.3" : null;
            if (protocol != null && Arrays.asList(protocols).contains(protocol))
            {
                return suites;
            }
        }
        throw new IllegalArgumentException("tlsCipherSuites: none of " + String.join(", ", suites) + " serves tlsProtocols " +
            String.join(", ", protocols) + " (TLS 1.3 suites are TLS_AES_* and TLS_CHACHA20_*, TLS 1.2 suites have _WITH_ in their name)");
    }

    /** Refuses the first of {@code values} this JDK does not offer, naming the option and what it offers. */
    private static void requireOffered(final String option, final String[] values, final String[] offered)
    {
        final List<String> supported = Arrays.asList(offered);
        for (final String value : values)
        {
            if (!supported.contains(value))
            {
                throw new IllegalArgumentException(option + ": " + value + " is not supported by this JDK (it offers " +
                    String.join(", ", offered) + ")");
            }
        }
    }

    private static KeyStore load(final String option, final String path, final String type, final char[] password)
        throws GeneralSecurityException
    {
        final KeyStore store = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(Path.of(path)))
        {
            store.load(in, password);
            return store;
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(option + ": cannot read " + type + " store " + path + ": " + ex.getMessage() +
                " (check the path, the type and the password)", ex);
        }
    }

    /** Refuses to listen without a certificate to present. */
    void checkCanAccept()
    {
        if (!hasKeyStore)
        {
            throw new IllegalArgumentException("tlsEnabled is true but tlsKeyStore is empty: an acceptor needs a certificate to present");
        }
    }

    /**
     * A new engine for one connection. The acceptor side presents the key store's certificate and,
     * with tlsNeedClientAuth, requires one from the peer; the initiator side checks that the
     * acceptor's certificate names {@code host} (endpoint identification, as HTTPS does) unless
     * tlsVerifyHostname is false.
     */
    SSLEngine newEngine(final boolean client, final String host, final int port)
    {
        final SSLEngine engine = client ? context.createSSLEngine(host, port) : context.createSSLEngine();
        engine.setUseClientMode(client);
        final SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(protocols);
        if (cipherSuites != null)
        {
            parameters.setCipherSuites(cipherSuites);
            // the acceptor picks from the initiator's offer in this side's order: JDK 17's default for a server, set
            // so that the documented behaviour does not hang on a default
            parameters.setUseCipherSuitesOrder(true);
        }
        if (client && verifyHostname)
        {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        if (!client)
        {
            parameters.setNeedClientAuth(needClientAuth);
        }
        engine.setSSLParameters(parameters);
        return engine;
    }
}
