package dev.servebench.bench;

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
 * One {@code servebench run} in a child JVM, memory sampled while it runs (see {@link MemorySampler}), its GC
 * log read and its summary parsed after it exits. Its stdout, stderr, GC log and output directory go to
 * {@code dir}; the records file (one JSON line per request, hundreds of MB at 1 M requests) is deleted
 * afterwards unless kept.
 */
final class ClientRun {

    /** How the child JVM is started. */
    record Jvm(String maxHeap, List<String> classpathOrJar, int sampleMillis, Duration timeout, boolean keepRecords) {}

    /** One point of the plan. */
    record Point(int requests, int concurrency) {
        String label() {
            return "r" + requests + "-c" + concurrency;
        }
    }

    /**
     * What happened to the child: its exit code (137/143 after a timeout kill), whether it was killed for
     * running past the timeout, whether it reported an OutOfMemoryError, and the stderr line that says why.
     */
    record Outcome(int exitCode, boolean timedOut, boolean outOfMemory, double wallSeconds, String errorLine) {
        String describe() {
            return timedOut ? "timeout" : exitCode + (outOfMemory ? " (OOM)" : "");
        }
    }

    record Result(Point point, Outcome outcome, MemorySampler.Peaks memory, GcLog gc, Optional<RunSummary> summary,
                  long recordsBytes, Optional<DispatchWaves> waves) {}

    private ClientRun() {
    }

    static Result run(Point point, Jvm jvm, int port, int outputLen, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path out = dir.resolve("out");
        Path stdout = dir.resolve("stdout.txt");
        Path stderr = dir.resolve("stderr.txt");
        List<String> command = command(point, jvm, port, outputLen, dir.resolve("gc.log"), out);
        Files.writeString(dir.resolve("command.txt"), String.join(" ", command) + "\n");
        long started = System.nanoTime();
        Process child = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        MemorySampler sampler = MemorySampler.start(child.pid(), jvm.sampleMillis());
        MemorySampler.Peaks peaks;
        boolean timedOut;
        try {
            timedOut = !child.waitFor(jvm.timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (timedOut) {
                child.destroy();
                if (!child.waitFor(10, TimeUnit.SECONDS)) {
                    child.destroyForcibly().waitFor();
                }
            }
        } finally {
            peaks = sampler.stop();
        }
        double wall = (System.nanoTime() - started) / 1e9;
        String errors = Files.readString(stderr, StandardCharsets.UTF_8);
        boolean oom = errors.contains("OutOfMemoryError")
                || Files.readString(stdout, StandardCharsets.UTF_8).contains("OutOfMemoryError");
        Outcome outcome = new Outcome(child.exitValue(), timedOut, oom, wall, errorLine(errors));
        Optional<DispatchWaves> waves = DispatchWaves.read(
                out.resolve("concurrency-" + point.concurrency() + ".records.jsonl"), point.concurrency());
        return new Result(point, outcome, peaks, GcLog.read(dir.resolve("gc.log")), RunSummary.find(out),
                dropRecords(out, jvm.keepRecords()), waves);
    }

    private static List<String> command(Point point, Jvm jvm, int port, int outputLen, Path gcLog, Path out) {
        List<String> command = new ArrayList<>(List.of(ScriptedServerProcess.javaTool("java").toString(),
                "-Xmx" + jvm.maxHeap(), "-XX:+UseG1GC", "-Xlog:gc:file=" + gcLog + ":uptime",
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvm.classpathOrJar());
        command.addAll(List.of("run", "--base-url", "http://127.0.0.1:" + port, "--backend", "openai",
                "--dataset-name", "random", "--random-input-len", "16", "--random-output-len", Integer.toString(outputLen),
                "--random-range-ratio", "1", "--num-prompts", Integer.toString(point.requests()),
                "--max-concurrency", Integer.toString(point.concurrency()), "--output-dir", out.toString(),
                "--no-progress", "--warmup-requests", "1"));
        return command;
    }

    /** Total size of the records files, deleted unless {@code keep}. */
    private static long dropRecords(Path out, boolean keep) throws IOException {
        if (!Files.isDirectory(out)) {
            return 0;
        }
        long bytes = 0;
        try (var files = Files.list(out)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".records.jsonl")).toList()) {
                bytes += Files.size(p);
                if (!keep) {
                    Files.delete(p);
                }
            }
        }
        return bytes;
    }

    /**
     * The line of stderr that says why: the first {@code servebench: ...} message, OutOfMemoryError or uncaught
     * exception; else the last line (SLF4J's notice about the test classpath having no binding skipped).
     */
    private static String errorLine(String stderr) {
        List<String> lines = stderr.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("SLF4J:")).toList();
        return lines.stream()
                .filter(l -> l.startsWith("servebench:") || l.contains("OutOfMemoryError") || l.startsWith("Exception in"))
                .findFirst().orElse(lines.isEmpty() ? "" : lines.getLast());
    }
}
