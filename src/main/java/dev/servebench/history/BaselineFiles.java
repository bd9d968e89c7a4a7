package dev.servebench.history;

import dev.servebench.results.FileFormat;
import dev.servebench.results.MeasurementsFile;
import dev.servebench.telemetry.RunEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Baselines on disk: {@code <root>/<spec>/<fingerprint>.json}, one per spec and environment, holding the
 * newest runs' samples (pooled when read), the newest environment and where each run came from. Written
 * atomically.
 */
public final class BaselineFiles {

    public static final Path DEFAULT_ROOT = Path.of("reports", "baselines");

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

    /** Runs a baseline pools by default: enough to see run-to-run drift, recent enough to follow the branch. */
    public static final int DEFAULT_KEEP = 5;

    /** {@link #update(Path, Path, int)} keeping {@value #DEFAULT_KEEP} runs. */
    public static Path update(Path runDirectory, Path root) throws IOException {
        return update(runDirectory, root, DEFAULT_KEEP);
    }

    /**
     * Adds {@code runDirectory} to the baseline of its spec and fingerprint, which keeps the newest
     * {@code keep} valid runs (the same run added twice counts once); returns the file written. Why several:
     * repeats within one run share that run's machine state, so one run's spread misses the run-to-run drift
     * of a shared runner, and a gate against a single run flags that drift as regressions.
     */
    public static Path update(Path runDirectory, Path root, int keep) throws IOException {
        if (keep < 1) {
            throw new IllegalArgumentException("keep (" + keep + ") must be >= 1");
        }
        runDirectory = resolveRun(runDirectory);
        MeasurementsFile measurements = MeasurementsFile.read(runDirectory.resolve(MeasurementsFile.FILE));
        RunEnvironment environment = RunEnvironment.read(runDirectory.resolve(RunEnvironment.FILE));
        RunSamples samples = RunSamples.of(measurements, environment, runDirectory.toString());
        if (!samples.allValid()) {
            throw new IllegalArgumentException(runDirectory + " has invalid load points ("
                    + samples.points().stream().filter(p -> !p.valid()).map(RunSamples.PointSamples::point).toList()
                    + "); a baseline must be a valid run");
        }
        Path file = baselineFor(samples, root);
        String source = runDirectory.toAbsolutePath().normalize().toString();
        List<BaselineFile.Run> runs = new ArrayList<>();
        if (Files.isRegularFile(file)) {
            for (BaselineFile.Run run : BaselineFile.read(file).runs()) {
                if (!run.sourceRun().equals(source)) {
                    runs.add(run);
                }
            }
        }
        runs.add(new BaselineFile.Run(source, measurements));
        new BaselineFile(FileFormat.BASELINE.id(), environment, runs.subList(Math.max(0, runs.size() - keep),
                runs.size())).write(file);
        return file;
    }

    public static RunSamples readRun(Path runDirectory) throws IOException {
        runDirectory = resolveRun(runDirectory);
        return RunSamples.of(MeasurementsFile.read(runDirectory.resolve(MeasurementsFile.FILE)),
                RunEnvironment.read(runDirectory.resolve(RunEnvironment.FILE)), runDirectory.toString());
    }

    /**
     * A baseline's samples: per load point and metric, the repeats of all its runs pooled (a point counts as
     * valid when it is valid in every run).
     */
    public static RunSamples readBaseline(Path file) throws IOException {
        BaselineFile baseline = BaselineFile.read(file);
        RunSamples first = null;
        Map<String, Map<String, List<Double>>> pooled = new LinkedHashMap<>();
        Map<String, Boolean> valid = new LinkedHashMap<>();
        for (BaselineFile.Run run : baseline.runs()) {
            RunSamples samples = RunSamples.of(run.measurements(), baseline.environment(), file.toString());
            first = first == null ? samples : first;
            for (RunSamples.PointSamples point : samples.points()) {
                valid.merge(point.point(), point.valid(), Boolean::logicalAnd);
                Map<String, List<Double>> metrics = pooled.computeIfAbsent(point.point(), k -> new LinkedHashMap<>());
                point.metrics().forEach((metric, values) -> {
                    List<Double> all = metrics.computeIfAbsent(metric, k -> new ArrayList<>());
                    for (double value : values) {
                        all.add(value);
                    }
                });
            }
        }
        if (first == null) {
            throw new IllegalArgumentException(file + ": holds no runs; expected a baseline that"
                    + " servebench baseline update wrote");
        }
        List<RunSamples.PointSamples> points = new ArrayList<>();
        pooled.forEach((point, metrics) -> {
            Map<String, double[]> arrays = new LinkedHashMap<>();
            metrics.forEach((metric, values) -> arrays.put(metric, values.stream().mapToDouble(Double::doubleValue).toArray()));
            points.add(new RunSamples.PointSamples(point, valid.get(point), arrays));
        });
        return new RunSamples(first.spec(), first.specSha256(), first.fingerprint(), points);
    }
}
