package dev.servebench.logging;

import java.nio.file.Path;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The tests' JVMs (surefire, and failsafe's perf suite) log like the product: library records go to
 * {@code target/servebench.log} (the perf suite then moves them beside its run's results), not into
 * the test output. Registered in META-INF/services, so it runs before any test starts a server.
 */
public final class TestRunLogging implements LauncherSessionListener {

    static final Path FILE = Path.of("target", LogFile.FILE_NAME);

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        LogFile.install(FILE);
    }
}
