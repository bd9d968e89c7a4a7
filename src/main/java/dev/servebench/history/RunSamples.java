package dev.servebench.history;

import com.fasterxml.jackson.databind.JsonNode;
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

    /** From the two JSON documents a perf run writes; {@code source} names them in errors. */
    public static RunSamples of(JsonNode measurements, JsonNode environment, String source) {
        String spec = text(measurements, "spec", source);
        String sha = text(measurements, "spec_sha256", source);
        String fingerprint = text(environment, "fingerprint", source + " (environment)");
        if (!sha.equals(text(environment, "spec_sha256", source + " (environment)"))) {
            throw new IllegalArgumentException(source + ": measurements and environment name different spec hashes");
        }
        List<PointSamples> points = new ArrayList<>();
        for (JsonNode point : measurements.path("points")) {
            Map<String, List<Double>> values = new LinkedHashMap<>();
            for (JsonNode repeat : point.path("repeats")) {
                repeat.properties().forEach(e -> values.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                        .add(e.getValue().asDouble()));
            }
            Map<String, double[]> metrics = new LinkedHashMap<>();
            values.forEach((metric, list) -> metrics.put(metric, list.stream().mapToDouble(Double::doubleValue).toArray()));
            points.add(new PointSamples(text(point, "point", source), point.path("valid").asBoolean(false), metrics));
        }
        return new RunSamples(spec, sha, fingerprint, points);
    }

    private static String text(JsonNode node, String field, String source) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException(source + ": missing \"" + field + "\"; expected a perf run's"
                    + " measurements.json and environment.json (./mvnw verify -Pperf writes them)");
        }
        return value.asText();
    }
}
