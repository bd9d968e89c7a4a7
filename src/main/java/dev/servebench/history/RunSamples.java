package dev.servebench.history;

import dev.servebench.results.MeasurementsFile;
import dev.servebench.telemetry.RunEnvironment;
import dev.servebench.telemetry.MachineSpeedProbe;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The samples of one perf run (or a baseline made from one): per load point, each metric's value in every
 * repeat. Built from {@code measurements.json} + {@code environment.json}; pure once parsed.
 */
public record RunSamples(String spec, String specSha256, String fingerprint, List<PointSamples> points) {

    public RunSamples {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(specSha256, "specSha256");
        Objects.requireNonNull(fingerprint, "fingerprint");
        points = List.copyOf(points);
    }

    /** One load point: whether it was valid, and metric id → value per repeat. */
    public record PointSamples(String point, boolean valid, Map<String, double[]> metrics) {
        public PointSamples {
            Objects.requireNonNull(point, "point");
            metrics = Map.copyOf(metrics);
        }
    }

    public Optional<PointSamples> point(String name) {
        return points.stream().filter(p -> p.point().equals(name)).findFirst();
    }

    /** The machine speed probe's samples of every repeat of every point; empty for runs recorded without it. */
    public double[] machineProbeMs() {
        return points.stream().map(p -> p.metrics().get(MachineSpeedProbe.SAMPLE_KEY)).filter(Objects::nonNull)
                .flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    public boolean allValid() {
        return points.stream().allMatch(PointSamples::valid);
    }

    /** From the two files a perf run writes; {@code source} names them in errors. */
    public static RunSamples of(MeasurementsFile measurements, RunEnvironment environment, String source) {
        if (measurements.specSha256().isEmpty()) {
            throw new IllegalArgumentException(source + ": missing \"spec_sha256\"; expected a perf run's"
                    + " measurements.json (./mvnw verify -Pperf writes it)");
        }
        if (!measurements.specSha256().equals(environment.specSha256())) {
            throw new IllegalArgumentException(source + ": measurements and environment name different spec hashes");
        }
        List<PointSamples> points = new ArrayList<>();
        for (MeasurementsFile.Point point : measurements.points()) {
            Map<String, List<Double>> values = new LinkedHashMap<>();
            for (Map<String, Double> repeat : point.repeats()) {
                repeat.forEach((metric, value) -> values.computeIfAbsent(metric, k -> new ArrayList<>()).add(value));
            }
            Map<String, double[]> metrics = new LinkedHashMap<>();
            values.forEach((metric, list) -> metrics.put(metric, list.stream().mapToDouble(Double::doubleValue).toArray()));
            points.add(new PointSamples(point.point(), point.valid(), metrics));
        }
        return new RunSamples(measurements.spec(), measurements.specSha256(), environment.fingerprint(), points);
    }
}
