package dev.servebench.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Baselines on disk: {@code <root>/<spec>/<fingerprint>.json}, one per spec and environment, holding the
 * chosen run's samples, environment and where it came from. Written atomically.
 */
public final class BaselineFiles {

    public static final Path DEFAULT_ROOT = Path.of("reports", "baselines");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BaselineFiles() {
    }

    /** Makes {@code runDirectory} the baseline of its spec and fingerprint; returns the file written. */
    public static Path update(Path runDirectory, Path root) throws IOException {
        JsonNode measurements = read(runDirectory.resolve("measurements.json"));
        JsonNode environment = read(runDirectory.resolve("environment.json"));
        RunSamples samples = RunSamples.of(measurements, environment, runDirectory.toString());
        if (!samples.allValid()) {
            throw new IllegalArgumentException(runDirectory + " has invalid load points ("
                    + samples.points().stream().filter(p -> !p.valid()).map(RunSamples.PointSamples::point).toList()
                    + "); a baseline must be a valid run");
        }
        ObjectNode baseline = JSON.createObjectNode();
        baseline.put("source_run", runDirectory.toAbsolutePath().normalize().toString());
        baseline.set("environment", environment);
        baseline.set("measurements", measurements);
        Path file = root.resolve(samples.spec()).resolve(samples.fingerprint() + ".json");
        Files.createDirectories(file.getParent());
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temporary, JSON.writeValueAsString(baseline), StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    public static RunSamples readRun(Path runDirectory) throws IOException {
        return RunSamples.of(read(runDirectory.resolve("measurements.json")),
                read(runDirectory.resolve("environment.json")), runDirectory.toString());
    }

    public static RunSamples readBaseline(Path file) throws IOException {
        JsonNode baseline = read(file);
        return RunSamples.of(baseline.path("measurements"), baseline.path("environment"), file.toString());
    }

    private static JsonNode read(Path file) throws IOException {
        try {
            return JSON.readTree(file.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new NoSuchFileException(file.toString(), null, "not found; expected a perf run directory"
                    + " (reports/perf/<spec>-<time>/) or a baseline file");
        }
    }
}
