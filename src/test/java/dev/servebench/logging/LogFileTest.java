package dev.servebench.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Every logging API a library of servebench uses ends in the same file: java.util.logging (Helidon),
 * System.Logger (servebench, Helidon), SLF4J (Testcontainers, Allure, Netty under the tests). The tests'
 * JVM installed {@link LogFile} through {@link TestRunLogging}, as {@code Main} does for the product.
 */
class LogFileTest {

    @TempDir
    Path directory;

    @Test
    void julSystemLoggerAndSlf4jRecordsLandBesideTheRun() throws IOException {
        LogFile.beside(directory);

        java.util.logging.Logger.getLogger("io.helidon.webserver.Test").info("jul record");
        System.getLogger("dev.servebench.Test").log(System.Logger.Level.INFO, "system logger record");
        LoggerFactory.getLogger("org.testcontainers.Test").info("slf4j record");
        System.getLogger("dev.servebench.Test").log(System.Logger.Level.DEBUG, "debug stays out");
        LogFile.beside(TestRunLogging.FILE.getParent());

        String log = Files.readString(directory.resolve(LogFile.FILE_NAME));
        assertThat(log).contains("io.helidon.webserver.Test: jul record", "dev.servebench.Test: system logger record",
                "org.testcontainers.Test: slf4j record").doesNotContain("debug stays out");
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName()).isEqualTo("org.slf4j.jul.JDK14LoggerFactory");
    }
}
