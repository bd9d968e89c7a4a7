package dev.servebench.history;

import dev.servebench.report.AtomicFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Baselines on disk: {@code <root>/<spec>/<fingerprint>.json}, one per spec and environment, holding the
 * chosen run's samples, environment and where it came from. Written atomically.
 */
public final class BaselineFiles {

    public static final Path DEFAULT_ROOT = Path.of("reports", "baselines");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BaselineFiles() {
    }

    /**
     * A run directory itself, or — given a directory of runs such as {@code reports/perf} — its newest run
     * (run directories are named {@code <spec>-<yyyyMMdd-HHmmss>}, so the newest sorts last per spec).
     */
    public static Path resolveRun(Path path) throws IOException {
        if (Files.isRegularFile(path.resolve("measurements.json"))) {
            return path;
        }
        if (Files.isDirectory(path)) {
            try (var children = Files.list(path)) {
                java.util.Optional<Path> newest = children.filter(c -> Files.isRegularFile(c.resolve("measurements.json")))
                        .max(java.util.Comparator.comparing((Path c) -> lastModified(c.resolve("measurements.json")))
                                .thenComparing(Path::toString));
                if (newest.isPresent()) {
                    return newest.get();
                }
            }
        }
        throw new NoSuchFileException(path.toString(), null, "no measurements.json here nor in a run directory below;"
                + " expected a perf run directory (reports/perf/<spec>-<time>/) or a directory of them");
    }

    /** The baseline a run is compared with: {@code <root>/<spec>/<fingerprint>.json}. */
    public static Path baselineFor(RunSamples run, Path root) {
        return root.resolve(run.spec()).resolve(run.fingerprint() + ".json");
    }

    private static java.nio.file.attribute.FileTime lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }

    /** Makes {@code runDirectory} the baseline of its spec and fingerprint; returns the file written. */
    public static Path update(Path runDirectory, Path root) throws IOException {
        runDirectory = resolveRun(runDirectory);
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
        Path file = baselineFor(samples, root);
        AtomicFiles.write(file, JSON.writeValueAsString(baseline));
        return file;
    }

    public static RunSamples readRun(Path runDirectory) throws IOException {
        runDirectory = resolveRun(runDirectory);
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
