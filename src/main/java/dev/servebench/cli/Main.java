package dev.servebench.cli;

import dev.servebench.record.ErrorLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import dev.servebench.logging.LogFile;
import picocli.CommandLine;

/** Entry point of {@code java -jar servebench.jar}. */
public final class Main {

    /** Exit code for bad input discovered after option parsing (a file, a dataset, a URL). */
    static final int BAD_INPUT = 2;

    private Main() {}

    public static void main(String[] args) {
        // First, before any library logs: their records go to a file, the console stays servebench's.
        LogFile.install(LogFile.DEFAULT);
        CommandLine cli = commandLine();
        int exit;
        try {
            exit = cli.execute(args);
        } catch (Throwable t) {
            // e.g. an OutOfMemoryError while preparing the requests, before any load driver watches.
            exit = InternalErrorReport.report(cli.getErr(), "internal error: " + ErrorLine.of(t), t);
        }
        // Library warnings are not lost on the user: one line says where they are.
        LogFile.warningsLogged().ifPresent(file -> cli.getErr().println(
                "servebench: " + LogFile.warnings() + " warning(s) from libraries logged in " + file));
        cli.getErr().flush();
        System.exit(exit);
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new ServebenchCommand());
        // Expected failures (bad files, bad values) are one line for the user, not a stack trace.
        cli.setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
            if (exception instanceof IllegalArgumentException || exception instanceof IOException
                    || exception instanceof UncheckedIOException || exception instanceof IllegalStateException) {
                commandLine.getErr().println("servebench: " + exception.getMessage());
                return BAD_INPUT;
            }
            throw exception;
        });
        return cli;
    }
}
