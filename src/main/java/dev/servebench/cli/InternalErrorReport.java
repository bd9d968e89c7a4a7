package dev.servebench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An internal error is one clear line for the user; its stack trace, which a maintainer needs, goes to a file
 * the line names instead of onto the console.
 */
final class InternalErrorReport {

    /** Exit code of a run stopped by an internal error (README). */
    static final int EXIT_CODE = 4;

    private InternalErrorReport() {}

    /** Prints {@code servebench: <line> (details: <file>)} and returns {@link #EXIT_CODE}. */
    static int report(PrintWriter err, String line, Throwable error) {
        String where;
        try {
            Path file = Files.createTempFile("servebench-internal-error-", ".txt");
            StringWriter trace = new StringWriter();
            error.printStackTrace(new PrintWriter(trace));
            Files.writeString(file, trace.toString());
            where = " (stack trace: " + file + ")";
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            where = "";
        }
        err.println("servebench: " + line + where);
        err.flush();
        return EXIT_CODE;
    }
}
