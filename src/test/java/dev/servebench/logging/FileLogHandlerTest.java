package dev.servebench.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records follow the target, directories are created for the fallback only, warnings are counted. */
class FileLogHandlerTest {

    @TempDir
    Path directory;

    @Test
    void recordsGoToTheFallbackThenToTheTargetOneLineEach() throws IOException {
        Path fallback = directory.resolve("default/servebench.log");
        Path run = Files.createDirectories(directory.resolve("run")).resolve("servebench.log");
        FileLogHandler handler = new FileLogHandler(fallback);

        handler.publish(record(Level.INFO, "before the run"));
        handler.target(run);
        handler.publish(record(Level.WARNING, "during the run"));
        handler.close();

        assertThat(Files.readAllLines(fallback)).singleElement().asString()
                .contains("INFO", "io.helidon.test: before the run");
        assertThat(Files.readAllLines(run)).singleElement().asString()
                .contains("WARNING", "io.helidon.test: during the run");
        assertThat(handler.warnings()).isEqualTo(1);
        assertThat(handler.lastWarningFile()).isEqualTo(run);
    }

    @Test
    void aTargetWhoseDirectoryIsGoneIsNotRecreated() throws IOException {
        Path fallback = directory.resolve("servebench.log");
        Path gone = directory.resolve("removed-run");
        FileLogHandler handler = new FileLogHandler(fallback);

        handler.target(gone.resolve("servebench.log"));
        handler.publish(record(Level.INFO, "late record"));
        handler.close();

        assertThat(gone).doesNotExist();
        assertThat(Files.readString(fallback)).contains("late record");
        assertThat(handler.warnings()).isZero();
    }

    @Test
    void aThrowableFollowsItsLine() throws IOException {
        Path file = directory.resolve("servebench.log");
        FileLogHandler handler = new FileLogHandler(file);
        LogRecord record = record(Level.SEVERE, "failed");
        record.setThrown(new IllegalStateException("cause"));

        handler.publish(record);
        handler.close();

        assertThat(Files.readAllLines(file).getFirst()).contains("SEVERE", "failed");
        assertThat(Files.readString(file)).contains("java.lang.IllegalStateException: cause");
    }

    private static LogRecord record(Level level, String message) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName("io.helidon.test");
        return record;
    }
}
