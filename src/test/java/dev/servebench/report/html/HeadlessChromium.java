package dev.servebench.report.html;

import dev.servebench.telemetry.gpu.ExecutableLookup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium (Debian package {@code chromium}) for checking the HTML report: each call is one browser
 * run with a fresh profile, bounded in time, its output in files so a large DOM cannot block a pipe.
 */
final class HeadlessChromium {

    /** Flags that keep a closed network quiet: without them Chromium retries update and sync hosts. */
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars");

    /** What a run printed. */
    record Output(String stdout, String stderr) {
    }

    private final Path executable;
    private final Path workDirectory;

    private HeadlessChromium(Path executable, Path workDirectory) {
        this.executable = executable;
        this.workDirectory = workDirectory;
    }

    /** /usr/bin/chromium, else chromium on PATH; empty when neither exists. */
    static Optional<HeadlessChromium> find(Path workDirectory) {
        Path debian = Path.of("/usr/bin/chromium");
        Optional<Path> executable = Files.isExecutable(debian) ? Optional.of(debian)
                : ExecutableLookup.systemPath().find("chromium");
        return executable.map(path -> new HeadlessChromium(path, workDirectory));
    }

    Output run(Duration timeout, String... arguments) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(workDirectory, "chromium-profile-");
        Path stdout = Files.createTempFile(workDirectory, "chromium-", ".out");
        Path stderr = Files.createTempFile(workDirectory, "chromium-", ".err");
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(FLAGS);
        command.add("--user-data-dir=" + profile.toAbsolutePath());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("chromium did not finish within " + timeout + ": " + command + "\nstderr:\n"
                    + tail(Files.readString(stderr, StandardCharsets.UTF_8)));
        }
        Output output = new Output(Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
        if (process.exitValue() != 0) {
            throw new AssertionError("chromium exited " + process.exitValue() + ": " + command + "\nstderr:\n"
                    + tail(output.stderr()));
        }
        return output;
    }

    static String tail(String text) {
        return text.length() <= 4000 ? text : "..." + text.substring(text.length() - 4000);
    }
}
