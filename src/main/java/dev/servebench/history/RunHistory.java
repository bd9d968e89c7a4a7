package dev.servebench.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.metric.NumpyStats;
import dev.servebench.results.FileFormat;
import dev.servebench.results.FormatJson;
import dev.servebench.telemetry.RunEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Nightly history: {@code <root>/<spec>.jsonl}, one line per run — its fingerprint, commit, time and the
 * median of every metric at every valid point. Appended (one write of one line, so a crash loses at most
 * that run); read back as series per metric × load point for change-point detection.
 */
public final class RunHistory {

    public static final Path DEFAULT_ROOT = Path.of("reports", "history");

    private static final ObjectMapper JSON = new ObjectMapper();

    private RunHistory() {
    }

    /**
     * One run of the history: one line of the file (format {@code servebench-history/1}, stated on every line:
     * a line per nightly run costs nothing, and lines of several versions can share a file).
     *
     * @param time    when its measurements.json was last written, ISO-8601
     * @param run     its run directory's name
     * @param medians load point → metric id → median over the point's repeats; valid points only
     */
    @JsonPropertyOrder({"format", "spec", "fingerprint", "commit", "time", "run", "medians"})
    public record Entry(String format, String spec, String fingerprint, String commit, String time, String run,
            Map<String, Map<String, Double>> medians) {
        public Entry {
            format = FileFormat.HISTORY.accept(format);
            spec = spec == null ? "" : spec;
            if (fingerprint == null || fingerprint.isEmpty()) {
                throw new IllegalArgumentException("missing \"fingerprint\"; expected a line that servebench"
                        + " history append wrote");
            }
            commit = commit == null ? "" : commit;
            time = time == null ? "" : time;
            run = run == null ? "" : run;
            Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
            (medians == null ? Map.<String, Map<String, Double>>of() : medians).forEach((point, values) ->
                    copy.put(point, Collections.unmodifiableMap(new LinkedHashMap<>(values))));
            medians = Collections.unmodifiableMap(copy);
        }

        /** The median of {@code metric} at {@code point}, when this run has a finite one. */
        public OptionalDouble median(String point, String metric) {
            Double value = medians.getOrDefault(point, Map.of()).get(metric);
            return value != null && Double.isFinite(value) ? OptionalDouble.of(value) : OptionalDouble.empty();
        }
    }

    /** Appends the run in {@code runDirectory} (or the newest run below it); returns the history file. */
    public static Path append(Path runDirectory, Path root) throws IOException {
        Path run = BaselineFiles.resolveRun(runDirectory);
        RunSamples samples = BaselineFiles.readRun(run);
        RunEnvironment environment = RunEnvironment.read(run.resolve(RunEnvironment.FILE));
        Map<String, Map<String, Double>> medians = new LinkedHashMap<>();
        for (RunSamples.PointSamples point : samples.points()) {
            if (!point.valid()) {
                continue;
            }
            Map<String, Double> values = new LinkedHashMap<>();
            point.metrics().forEach((metric, repeats) -> values.put(metric, NumpyStats.median(repeats)));
            medians.put(point.point(), values);
        }
        Entry line = new Entry(FileFormat.HISTORY.id(), samples.spec(), samples.fingerprint(), environment.commit(),
                Files.getLastModifiedTime(run.resolve("measurements.json")).toInstant().toString(),
                run.getFileName().toString(), medians);
        Path file = root.resolve(samples.spec() + ".jsonl");
        Files.createDirectories(root);
        Files.writeString(file, JSON.writeValueAsString(line) + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return file;
    }

    /** The entries of one environment, oldest first (lines of other fingerprints are skipped). */
    public static List<Entry> read(Path file, String fingerprint) throws IOException {
        List<Entry> entries = new ArrayList<>();
        int number = 0;
        for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            number++;
            if (text.isBlank()) {
                continue;
            }
            JsonNode line;
            try {
                line = JSON.readTree(text);
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IllegalArgumentException(file + ":" + number + ": not a JSON line: " + e.getOriginalMessage());
            }
            Entry entry = FormatJson.convert(line, FileFormat.HISTORY, Entry.class, file + ":" + number);
            if (fingerprint == null || entry.fingerprint().equals(fingerprint)) {
                entries.add(entry);
            }
        }
        return entries;
    }
}
