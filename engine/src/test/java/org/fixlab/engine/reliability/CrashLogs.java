package org.fixlab.engine.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fixlab.engine.session.SessionId;
import org.fixlab.engine.session.SessionLog;

/** What the crash tests keep to explain a failure: the in-process engine's events and the child process's stderr. */
final class CrashLogs
{
    private CrashLogs()
    {
    }

    /** A log that adds every event to {@code events}, warnings prefixed with "WARN ". */
    static SessionLog recording(final List<String> events)
    {
        return new SessionLog()
        {
            @Override
            public void info(final SessionId session, final String event)
            {
                events.add(event);
            }

            @Override
            public void warn(final SessionId session, final String event)
            {
                events.add("WARN " + event);
            }
        };
    }

    /** The file's text, "(empty)" when it does not exist. */
    static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "(empty)";
        }
        catch (final IOException ex)
        {
            return "(unreadable: " + ex + ")";
        }
    }
}
