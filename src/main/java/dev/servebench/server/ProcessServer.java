package dev.servebench.server;

import dev.servebench.client.Backend;
import dev.servebench.spec.ProcessTargetSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A server started as a local process for the run: stdout and stderr go to a log file and a bounded
 * in-memory tail; it counts as started once a one-token completion succeeds; {@link #close()} stops the
 * process and every process it started.
 */
public final class ProcessServer implements ServerUnderTest {

    /** How long SIGTERM gets before SIGKILL: SGLang and vLLM need a few seconds to release their workers. */
    public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(15);
    /** Log lines quoted in a start failure. */
    static final int ERROR_LOG_LINES = 40;
    private static final Duration PUMP_DRAIN = Duration.ofSeconds(2);

    private final ProcessTargetSpec spec;
    private final Process process;
    private final LogTail log;
    private final Thread pump;
    private final Thread shutdownHook;
    private final Optional<String> apiKey;
    private final Optional<String> model;
    private final Duration stopGrace;
    private boolean closed;

    private ProcessServer(ProcessTargetSpec spec, Process process, LogTail log, Thread pump, Thread shutdownHook,
                          Optional<String> apiKey, Optional<String> model, Duration stopGrace) {
        this.spec = spec;
        this.process = process;
        this.log = log;
        this.pump = pump;
        this.shutdownHook = shutdownHook;
        this.apiKey = apiKey;
        this.model = model;
        this.stopGrace = stopGrace;
    }

    /** {@link #start(ProcessTargetSpec, Path, Optional, Duration)} with {@link #DEFAULT_STOP_GRACE}. */
    public static ProcessServer start(ProcessTargetSpec spec, Path logFile, Optional<String> apiKey)
            throws IOException, InterruptedException {
        return start(spec, logFile, apiKey, DEFAULT_STOP_GRACE);
    }

    /**
     * Starts {@code spec.command()} and waits until it serves on {@code spec.baseUrl()}.
     *
     * @param logFile   receives the process's stdout and stderr (replaced if it exists)
     * @param stopGrace how long {@link #close()} waits after SIGTERM before it kills
     * @throws ServerStartException the port is taken, the program cannot start, it exits before it is ready
     *                              (fails fast, with its last log lines), or it is not ready in time
     */
    public static ProcessServer start(ProcessTargetSpec spec, Path logFile, Optional<String> apiKey, Duration stopGrace)
            throws IOException, InterruptedException {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(stopGrace, "stopGrace");
        String shown = "process target `" + Redaction.command(spec.command()) + "`";
        if (portAnswers(spec.port())) {
            // Otherwise the readiness check would succeed against whatever already listens there.
            throw new ServerStartException(ServerStartException.Reason.LAUNCH_FAILED, "cannot start " + shown
                    + ": port " + spec.port() + " on 127.0.0.1 is already in use (another server would be measured)");
        }
        ProcessBuilder builder = new ProcessBuilder(spec.command()).redirectErrorStream(true);
        spec.workingDir().ifPresent(dir -> builder.directory(dir.toFile()));
        builder.environment().putAll(spec.env());
        LogTail log = LogTail.toFile(logFile, LogTail.DEFAULT_CAPACITY);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            log.close();
            throw new ServerStartException(ServerStartException.Reason.LAUNCH_FAILED, "cannot start " + shown
                    + spec.workingDir().map(dir -> " in " + dir).orElse("") + ": " + e.getMessage(), e);
        }
        Thread pump = Thread.ofPlatform().daemon().name("servebench-log-" + process.pid())
                .start(() -> copy(process.getInputStream(), log));
        // A test JVM that exits without close() (Ctrl-C, a crash) must not leave a server holding GPUs.
        Thread hook = Thread.ofPlatform().unstarted(() -> ProcessTree.terminate(process.toHandle(), Duration.ofSeconds(2)));
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Readiness.Ready ready = Readiness.await(spec.baseUrl(), spec.backend(), spec.model(), apiKey,
                    spec.readyTimeout(), process::isAlive);
            return new ProcessServer(spec, process, log, pump, hook, apiKey, ready.model(), stopGrace);
        } catch (ServerStartException e) {
            String outcome;
            if (e.reason() == ServerStartException.Reason.EXITED) {
                pump.join(PUMP_DRAIN);   // its last words are what the user needs
                outcome = " exited with code " + process.waitFor() + " before it was ready";
            } else {
                outcome = " was stopped";
            }
            stop(process, pump, log, hook, stopGrace);
            throw new ServerStartException(e.reason(), shown + " (pid " + process.pid() + ")" + outcome + ": "
                    + e.getMessage() + "\n" + log.excerptForError(ERROR_LOG_LINES), e);
        } catch (InterruptedException | RuntimeException e) {
            stop(process, pump, log, hook, stopGrace);
            throw e;
        }
    }

    private static boolean portAnswers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void copy(InputStream output, LogTail log) {
        char[] buffer = new char[8192];
        try (Reader reader = new InputStreamReader(output, StandardCharsets.UTF_8)) {
            int n;
            while ((n = reader.read(buffer)) >= 0) {
                log.append(new String(buffer, 0, n));
            }
        } catch (IOException e) {
            // the stream closes when the process is killed: end of log
        }
    }

    /** The started process (its descendants are stopped with it). */
    public ProcessHandle process() {
        return process.toHandle();
    }

    /** The file with the process's whole output. */
    public Path logFile() {
        return log.file().orElseThrow();
    }

    @Override
    public URI baseUrl() {
        return spec.baseUrl();
    }

    @Override
    public String kind() {
        return spec.kind();
    }

    @Override
    public Backend backend() {
        return spec.backend();
    }

    @Override
    public Optional<String> model() {
        return model;
    }

    @Override
    public String describe() {
        return "process `" + Redaction.command(spec.command()) + "` (pid " + process.pid() + ") at " + baseUrl()
                + ", backend " + spec.backend().cliName() + model.map(m -> ", model " + m).orElse("")
                + ", env " + Redaction.environmentNames(spec.env()) + ", log " + logFile();
    }

    @Override
    public String logExcerpt(int maxLines) {
        return log.lastLines(maxLines);
    }

    @Override
    public CacheReset resetCache() {
        return CacheResets.attempt(baseUrl(), spec.backend(), apiKey);
    }

    private static void stop(Process process, Thread pump, LogTail log, Thread shutdownHook, Duration grace) {
        List<ProcessHandle> survivors = ProcessTree.terminate(process.toHandle(), grace);
        try {
            pump.join(PUMP_DRAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!survivors.isEmpty()) {
            log.appendLine("servebench: still alive after SIGKILL: pid " + survivors.stream()
                    .map(p -> Long.toString(p.pid())).collect(Collectors.joining(", ")));
        }
        log.close();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook runs anyway and finds nothing left to stop
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop(process, pump, log, shutdownHook, stopGrace);
    }
}
