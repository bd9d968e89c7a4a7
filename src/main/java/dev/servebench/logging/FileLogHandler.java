package dev.servebench.logging;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Appends records to a file whose path can change while the JVM runs (a run names its output directory
 * after start-up). Not {@link java.util.logging.FileHandler}: that one fixes its path at creation and
 * leaves a {@code .lck} file beside the results. The file is opened on the first record, appended to, and
 * flushed per record (third-party records are few; a crash must not lose the ones explaining it).
 *
 * <p>Only the fallback file's directory is created; a target's directory must exist (a run creates its
 * own). Otherwise a directory removed after its run (a test's temporary one) would be re-created by a
 * later record: when a target cannot be opened, records go to the fallback instead.
 */
final class FileLogHandler extends Handler {

    private static final String FORMAT = "%1$tF %1$tT.%1$tL %2$-7s %3$s: %4$s%5$s%n";

    private final Path fallback;
    private Path target;
    private Path openPath;
    private Writer writer;
    private boolean failed;
    private long warnings;
    private Path lastWarningFile;

    FileLogHandler(Path fallback) {
        this.fallback = fallback;
        this.target = fallback;
        setFormatter(new OneLine());
    }

    synchronized void target(Path file) {
        target = file;
        failed = false;
    }

    synchronized long warnings() {
        return warnings;
    }

    synchronized Path lastWarningFile() {
        return lastWarningFile;
    }

    @Override
    public synchronized void publish(LogRecord record) {
        if (!isLoggable(record) || failed) {
            return;
        }
        try {
            if (writer == null || !target.equals(openPath)) {
                closeWriter();
                try {
                    open(target);
                } catch (IOException e) {
                    if (target.equals(fallback)) {
                        throw e;
                    }
                    target = fallback;
                    open(fallback);
                }
            }
            writer.write(getFormatter().format(record));
            writer.flush();
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings++;
                lastWarningFile = openPath;
            }
        } catch (IOException e) {
            // Logging must never stop a benchmark; say it once, on the console servebench owns.
            failed = true;
            System.err.println("servebench: cannot write the log file " + target.toAbsolutePath() + ": " + e);
        }
    }

    private void open(Path file) throws IOException {
        if (file.equals(fallback) && file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        openPath = file;
    }

    @Override
    public synchronized void flush() {
        try {
            if (writer != null) {
                writer.flush();
            }
        } catch (IOException ignored) {
            // Nothing useful to do: the next publish reports a broken file.
        }
    }

    @Override
    public synchronized void close() {
        closeWriter();
    }

    private void closeWriter() {
        if (writer != null) {
            try {
                writer.close();
            } catch (IOException ignored) {
                // Already written records were flushed one by one.
            }
            writer = null;
            openPath = null;
        }
    }

    /** One line per record (the JDK's default takes two), the throwable's stack trace after it. */
    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            String thrown = "";
            if (record.getThrown() != null) {
                java.io.StringWriter trace = new java.io.StringWriter();
                record.getThrown().printStackTrace(new java.io.PrintWriter(trace));
                thrown = System.lineSeparator() + trace.toString().stripTrailing();
            }
            return String.format(FORMAT, ZonedDateTime.ofInstant(record.getInstant(), java.time.ZoneId.systemDefault()),
                    record.getLevel().getName(), record.getLoggerName(), formatMessage(record), thrown);
        }
    }
}
