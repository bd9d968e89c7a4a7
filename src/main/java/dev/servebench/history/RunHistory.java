package dev.servebench.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.metric.NumpyStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

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

    /** One run of the history. */
    public record Entry(String fingerprint, String commit, String time, JsonNode medians) {
    }

    /** Appends the run in {@code runDirectory} (or the newest run below it); returns the history file. */
    public static Path append(Path runDirectory, Path root) throws IOException {
        Path run = BaselineFiles.resolveRun(runDirectory);
        RunSamples samples = BaselineFiles.readRun(run);
        JsonNode environment = JSON.readTree(run.resolve("environment.json").toFile());
        ObjectNode line = JSON.createObjectNode();
        line.put("spec", samples.spec());
        line.put("fingerprint", samples.fingerprint());
        line.put("commit", environment.path("commit").asText(""));
        line.put("time", Files.getLastModifiedTime(run.resolve("measurements.json")).toInstant().toString());
        line.put("run", run.getFileName().toString());
        ObjectNode medians = line.putObject("medians");
        for (RunSamples.PointSamples point : samples.points()) {
            if (!point.valid()) {
                continue;
            }
            ObjectNode values = medians.putObject(point.point());
            point.metrics().forEach((metric, repeats) -> values.put(metric, NumpyStats.median(repeats)));
        }
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
            if (fingerprint == null || line.path("fingerprint").asText().equals(fingerprint)) {
                entries.add(new Entry(line.path("fingerprint").asText(), line.path("commit").asText(),
                        line.path("time").asText(), line.path("medians")));
            }
        }
        return entries;
    }
}
