package dev.servebench.logging;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where third-party logging goes: one file, never the console.
 *
 * <p>java.util.logging is servebench's only logging backend. Helidon and servebench's own code log through
 * {@link System.Logger}, which the JDK sends to it; SLF4J users (Netty, DJL's tokenizer loader, and under
 * the tests Testcontainers and Allure) reach it through {@code slf4j-jdk14}, shipped in the jar. stderr stays
 * for progress and servebench's own one-line messages, so the console handler is replaced by
 * {@link FileLogHandler}, which opens its file on the first record only (commands that log nothing leave no
 * file).
 *
 * <p>A user's own configuration ({@code -Djava.util.logging.config.file} or {@code .class}) wins: then
 * nothing is changed.
 */
public final class LogFile {

    /** The file's name beside a run's results. */
    public static final String FILE_NAME = "servebench.log";
    /** Where records go before a command names its output directory, and for commands without one. */
    public static final Path DEFAULT = Path.of("reports", FILE_NAME);

    private static FileLogHandler handler;

    private LogFile() {
    }

    /**
     * Routes every java.util.logging record at INFO and above to {@code file} (created with its directory on
     * the first record), none to the console. Once per JVM; later calls change nothing.
     */
    public static synchronized void install(Path file) {
        if (handler != null || userConfigured()) {
            return;
        }
        handler = new FileLogHandler(file);
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
            handler.close();
        }
        root.setLevel(Level.INFO);
        root.addHandler(handler);
    }

    /**
     * From now on records go to {@code directory/servebench.log}: a run's output directory, which must
     * exist. Does nothing when {@link #install} was not called (a user's configuration, a library use).
     */
    public static synchronized void beside(Path directory) {
        if (handler != null) {
            handler.target(directory.resolve(FILE_NAME));
        }
    }

    /** The file, when records of level WARNING or above went to it: the user is told where to look. */
    public static synchronized Optional<Path> warningsLogged() {
        return handler != null && handler.warnings() > 0
                ? Optional.of(handler.lastWarningFile().toAbsolutePath()) : Optional.empty();
    }

    /** Number of WARNING and SEVERE records written so far. */
    public static synchronized long warnings() {
        return handler == null ? 0 : handler.warnings();
    }

    private static boolean userConfigured() {
        return System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null;
    }
}
