package org.fixlab.engine.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;

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
 * {@link SSLContext} built from the key store and trust store, the protocols, client-certificate
 * authentication on the acceptor and host name verification on the initiator. Each connection gets
 * its own {@link SSLEngine} from {@link #newEngine}. A store that cannot be read, or a protocol the
 * JDK does not offer, fails the engine's construction with a message naming the option.
 */
public final class TlsSettings
{
    private final SSLContext context;
    private final String[] protocols;
    private final boolean needClientAuth;
    private final boolean verifyHostname;
    private final boolean hasKeyStore;

    private TlsSettings(final SSLContext context, final String[] protocols, final boolean needClientAuth,
        final boolean verifyHostname, final boolean hasKeyStore)
    {
        this.context = context;
        this.protocols = protocols;
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
            final String[] supported = context.getSupportedSSLParameters().getProtocols();
            for (final String protocol : protocols)
            {
                if (!Arrays.asList(supported).contains(protocol))
                {
                    throw new IllegalArgumentException("tlsProtocols: " + protocol + " is not supported by this JDK (it offers " +
                        String.join(", ", supported) + ")");
                }
            }
            return new TlsSettings(context, protocols, c.bool("tlsNeedClientAuth"), c.bool("tlsVerifyHostname"),
                keyManagers != null);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException("TLS cannot be set up from tlsKeyStore/tlsTrustStore: " + ex.getMessage(), ex);
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
