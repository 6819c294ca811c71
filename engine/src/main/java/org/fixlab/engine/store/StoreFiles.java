package org.fixlab.engine.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** Names of a session's store files: QuickFIX/J style, {@code <dir>/<sessionKey><suffix>}. */
final class StoreFiles
{
    private static final Pattern SAFE_KEY = Pattern.compile("[A-Za-z0-9._-]+");

    private StoreFiles()
    {
    }

    /** Creates {@code dir} if needed and returns the path of the session's file with {@code suffix}. */
    static Path resolve(final Path dir, final String sessionKey, final String suffix)
    {
        if (null == sessionKey || !SAFE_KEY.matcher(sessionKey).matches() || sessionKey.startsWith("."))
        {
            throw new IllegalArgumentException("store session key '" + sessionKey + "' must be letters, digits, '.', " +
                "'_' or '-' and not start with '.', so it is a file name on every platform: " +
                "for example FIX.4.4-SENDER-TARGET");
        }
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the store directory " + dir, ex);
        }
        return dir.resolve(sessionKey + suffix);
    }
}
