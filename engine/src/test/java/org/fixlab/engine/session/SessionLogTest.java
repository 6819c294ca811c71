package org.fixlab.engine.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The engine's events go through the SLF4J API: here the tests' binding (slf4j-simple) writes them to stderr. */
class SessionLogTest
{
    @Test
    void eventsGoThroughSlf4jWithTheirLevelAndLogger()
    {
        final PrintStream original = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            SessionLog.SLF4J.warn(null, "disconnected: slow reader");
            SessionLog.SLF4J.info(null, "listening on 9880");
        }
        finally
        {
            System.setErr(original);
        }
        final String lines = captured.toString(StandardCharsets.UTF_8);
        assertTrue(lines.contains("WARN org.fixlab.engine.session - engine disconnected: slow reader"), lines);
        assertTrue(lines.contains("INFO org.fixlab.engine.session - engine listening on 9880"), lines);
        assertTrue(!lines.contains("No SLF4J providers"), "a binding is on the classpath: " + lines);
    }
}
