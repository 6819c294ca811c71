package org.fixlab.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.fixlab.bench.campaign.Campaign;
import org.fixlab.bench.run.HarnessLiterals;

/**
 * Entry point of the bin/ scripts: {@code server}, {@code client} or {@code campaign}, then options.
 * Errors the user can fix end with one line on stderr and exit status 2; anything else is a bug
 * and keeps its stack trace.
 */
public final class BenchMain
{
    private BenchMain()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length == 0 || !(args[0].equals("server") || args[0].equals("client") || args[0].equals("campaign")))
        {
            System.err.println("fixlab-bench: usage: fixlab-bench server|client|campaign [--option value ...]");
            System.exit(2);
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try
        {
            if (!args[0].equals("campaign"))
            {
                final List<String> jvm = Options.parse(rest).product.ownJvm();
                if (!jvm.isEmpty())
                {
                    System.exit(relaunch(jvm, args));
                }
                HarnessLiterals.internAll();
            }
            switch (args[0])
            {
                case "server" -> BenchServer.run(Options.parse(rest));
                case "client" -> System.out.println("run written: " + BenchClient.run(Options.parse(rest)));
                default -> Campaign.main(rest);
            }
        }
        catch (final BenchException ex)
        {
            System.err.println("fixlab-bench " + args[0] + ": error: " + ex.getMessage());
            System.exit(2);
        }
        System.exit(0);
    }

    /** Runs the same role in the product's own JVM, with this process's output, and returns its exit status. */
    private static int relaunch(final List<String> jvm, final String[] args)
    {
        final List<String> command = new ArrayList<>(jvm);
        command.add(BenchMain.class.getName());
        command.addAll(Arrays.asList(args));
        try
        {
            final Process child = new ProcessBuilder(command).inheritIO().start();
            Runtime.getRuntime().addShutdownHook(new Thread(child::destroy));
            return child.waitFor();
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot start " + command.get(0) + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted");
        }
    }
}
