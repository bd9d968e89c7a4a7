package dev.servebench.telemetry.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A running {@code nvidia-smi … -lms <interval>} child process and the thread that reads its lines.
 * {@link #stop()} ends the process (and anything it started) and returns the report; memory stays bounded
 * however long it runs (see {@link BoundedSamples}).
 *
 * <p>Threads: one daemon reader thread parses lines and updates the per-GPU accumulators under
 * {@code lock}; {@link #stop()} may be called from any thread, any number of times.
 */
public final class GpuSampler implements AutoCloseable {

    /** How many problem lines a report quotes; the rest are only counted. */
    static final int MAX_PROBLEMS = 5;
    private static final long STOP_WAIT_MILLIS = 2_000;

    private final List<String> command;
    private final GpuTelemetryOptions options;
    private final Process process;
    private final Instant startedAt;
    private final Thread reader;
    private final Object lock = new Object();
    private final Map<Integer, GpuAccumulator> gpus = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private long unparsedLines;
    private volatile boolean stopping;
    private GpuTelemetryReport report;

    private GpuSampler(List<String> command, GpuTelemetryOptions options, Process process) {
        this.command = List.copyOf(command);
        this.options = options;
        this.process = process;
        this.startedAt = options.clock().instant();
        this.reader = Thread.ofPlatform().daemon().name("nvidia-smi-reader-" + process.pid()).unstarted(this::readLines);
    }

    static GpuSampler start(List<String> command, GpuTelemetryOptions options) throws IOException {
        // stderr joins stdout so that a driver error ("NVIDIA-SMI has failed …") reaches the report.
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            process.destroyForcibly();
            throw e;
        }
        GpuSampler sampler = new GpuSampler(command, options, process);
        sampler.reader.start();
        return sampler;
    }

    /** The child's process id (for diagnostics and tests). */
    public long pid() {
        return process.pid();
    }

    /** Lines parsed so far, all GPUs together (for tests waiting on the child). */
    long samplesSeen() {
        synchronized (lock) {
            return gpus.values().stream().mapToLong(GpuAccumulator::samples).sum();
        }
    }

    /** Whether the child is still running. */
    boolean running() {
        return process.isAlive();
    }

    private void readLines() {
        try (BufferedReader in = process.inputReader(StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                accept(line);
            }
        } catch (IOException e) {
            if (!stopping) {
                problem("reading nvidia-smi's output failed: " + e.getMessage());
            }
        }
    }

    private void accept(String line) {
        if (line.isBlank()) {
            return;
        }
        try {
            GpuSample sample = NvidiaSmiCsv.parse(line, options.clock().instant());
            synchronized (lock) {
                gpus.computeIfAbsent(sample.index(), i -> new GpuAccumulator(i, options.maxReadingsPerGpu())).add(sample);
            }
        } catch (IllegalArgumentException e) {
            synchronized (lock) {
                unparsedLines++;
            }
            problem(e.getMessage());
        }
    }

    private void problem(String text) {
        synchronized (lock) {
            if (problems.size() < MAX_PROBLEMS) {
                problems.add(text);
            }
        }
    }

    /**
     * Ends nvidia-smi and returns what was sampled. The first call does the work; later calls return the
     * same report.
     */
    public synchronized GpuTelemetryReport stop() {
        if (report != null) {
            return report;
        }
        stopping = true;
        Integer exitCode = process.isAlive() ? null : process.exitValue();
        try {
            if (exitCode != null) {
                // Everything it wrote is buffered: read it to the end first, because destroy() closes the
                // stream and a line not yet read would be lost (seen as a flaky unparsed-line count under load).
                reader.join(STOP_WAIT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        terminate();
        try {
            reader.join(STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Always reported, however many line problems came before.
        List<String> closing = new ArrayList<>();
        if (reader.isAlive()) {
            closing.add("nvidia-smi's output did not end within " + STOP_WAIT_MILLIS + " ms of stopping it");
        }
        if (exitCode != null) {
            closing.add("nvidia-smi ended by itself with exit code " + exitCode + " before it was stopped");
        }
        synchronized (lock) {
            List<GpuReport> reports = gpus.values().stream().map(GpuAccumulator::report).toList();
            List<String> allProblems = new ArrayList<>(problems);
            allProblems.addAll(closing);
            report = new GpuTelemetryReport(command, options.interval().toMillis(), startedAt,
                    options.clock().instant(), reports, exitCode, unparsedLines, allProblems);
        }
        return report;
    }

    /**
     * The descendants are listed before the parent goes (afterwards they are re-parented and no longer
     * found) and ended with it: a child that inherited stdout would keep the reader waiting for end of stream.
     */
    private void terminate() {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        boolean ended;
        try {
            ended = process.waitFor(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = false;
        }
        if (!ended) {
            process.destroyForcibly();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** Same as {@link #stop()}, discarding the report. */
    @Override
    public void close() {
        stop();
    }
}
