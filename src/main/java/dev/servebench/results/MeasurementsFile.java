package dev.servebench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code measurements.json} of a perf-suite run (format {@code servebench-measurements/1}): the spec's name
 * and hash, the target kind, the spec's repeats and their order, and per measured point every metric of every
 * repeat by metric id (and the machine speed probe's time before it), whether the point was valid, its GPU
 * energy and its roofline bound. The input of baselines, the gate, history and the HTML report; a baseline
 * embeds it. Written by {@code perf.RunMeasurementsJson}.
 *
 * @param specSha256  the spec file's hash; "" when a hand-made file has none (a baseline or gate needs it)
 * @param repeatOrder how repeats were ordered across points; null in files written before it was recorded
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"format", "spec", "spec_sha256", "target", "repeats", "repeat_order", "points"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MeasurementsFile(String format, String spec, String specSha256, String target, int repeats,
        String repeatOrder, List<Point> points) {

    public static final String FILE = "measurements.json";

    public MeasurementsFile {
        format = FileFormat.MEASUREMENTS.accept(format);
        requireText(spec, "spec");
        specSha256 = specSha256 == null ? "" : specSha256;
        target = target == null ? "" : target;
        points = points == null ? List.of() : List.copyOf(points);
    }

    /**
     * One measured load point.
     *
     * @param energy   the GPUs' energy over its last repeat; null without GPU samples
     * @param roofline its speed-of-light bound ({@link RooflineJson}); null when the spec has no deployment
     * @param repeats  per repeat, metric id (or {@code machine_probe_ms}) → finite value
     */
    @JsonPropertyOrder({"point", "requested", "valid", "energy", "roofline", "repeats"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Point(String point, int requested, boolean valid, Energy energy, RooflineJson roofline,
            List<Map<String, Double>> repeats) {
        public Point {
            requireText(point, "points[].point");
            if (repeats == null) {
                throw new IllegalArgumentException("point " + point + ": missing \"repeats\"; expected a list of"
                        + " {metric id: value}");
            }
            List<Map<String, Double>> copies = new ArrayList<>();
            for (Map<String, Double> repeat : repeats) {
                // Kept in file order, which is MetricId order: the file is rewritten byte for byte.
                copies.add(java.util.Collections.unmodifiableMap(new LinkedHashMap<>(repeat)));
            }
            repeats = List.copyOf(copies);
        }
    }

    /**
     * The GPUs' energy over a point's last repeat.
     *
     * @param repeat              which repeat (the last one, numbered from 1)
     * @param outputTokensPerJoule null when the repeat's output tokens are unknown
     * @param shareOfPowerLimit    mean power over the summed power limits; null without limits
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"repeat", "seconds", "total_joules", "output_tokens_per_joule", "share_of_power_limit",
            "gpus", "description"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Energy(int repeat, double seconds, double totalJoules, Double outputTokensPerJoule,
            Double shareOfPowerLimit, List<Gpu> gpus, String description) {
        public Energy {
            gpus = gpus == null ? List.of() : List.copyOf(gpus);
            Objects.requireNonNull(description, "energy.description");
        }
    }

    /** One GPU's share of a point's energy; the limit and share are null when the GPU reports no limit. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"index", "joules", "mean_power_w", "power_limit_w", "share_of_power_limit"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Gpu(int index, double joules, double meanPowerW, Double powerLimitW, Double shareOfPowerLimit) {
    }

    public void write(Path file) throws IOException {
        FormatJson.write(file, this);
    }

    public static MeasurementsFile read(Path file) throws IOException {
        return FormatJson.read(file, FileFormat.MEASUREMENTS, MeasurementsFile.class);
    }

    private static void requireText(String value, String field) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("missing \"" + field + "\"; expected a perf run's measurements.json"
                    + " (./mvnw verify -Pperf writes it)");
        }
    }
}
