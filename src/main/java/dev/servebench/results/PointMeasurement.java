package dev.servebench.results;

import dev.servebench.load.ClientUsage;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.NumpyStats;
import dev.servebench.metric.ServingSummary;
import dev.servebench.spec.LoadPointKey;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A load point measured {@code repeats} times. Expectations read the median over repeats of each metric:
 * one disturbed repeat does not decide a verdict.
 *
 * @param requested measured requests sent per repeat
 * @param files     summary JSON and records JSONL of every repeat
 */
public record PointMeasurement(LoadPointKey key, int requested, List<Repeat> repeats, List<Path> files) {

    public PointMeasurement {
        Objects.requireNonNull(key, "key");
        repeats = List.copyOf(repeats);
        files = List.copyOf(files);
        if (repeats.isEmpty()) {
            throw new IllegalArgumentException(key + ": no repeats measured");
        }
    }

    /**
     * One measurement of the point.
     *
     * @param machineProbeMs the machine speed probe's time just before this repeat
     *                       ({@link dev.servebench.telemetry.MachineSpeedProbe})
     */
    public record Repeat(ServingSummary summary, ClientUsage clientUsage, long durationNanos, double machineProbeMs) {
        public Repeat {
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(clientUsage, "clientUsage");
            if (!(machineProbeMs > 0) || Double.isInfinite(machineProbeMs)) {
                throw new IllegalArgumentException("machineProbeMs (" + machineProbeMs + ") must be a positive time");
            }
        }
    }

    /** Median over repeats; empty when no repeat produced the metric. */
    public OptionalDouble median(MetricId metric) {
        double[] values = repeats.stream().map(r -> r.summary().value(metric)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
        return values.length == 0 ? OptionalDouble.empty() : OptionalDouble.of(NumpyStats.median(values));
    }

    /** Why the metric is an estimate in some repeat (the first repeat's reason), or empty when none is. */
    public Optional<String> estimate(MetricId metric) {
        return repeats.stream().map(r -> r.summary().estimate(metric)).flatMap(Optional::stream).findFirst();
    }

    /** The repeat whose output throughput is the median one: the representative for attachments. */
    public Repeat representative() {
        Repeat[] sorted = repeats.toArray(Repeat[]::new);
        Arrays.sort(sorted, (a, b) -> Double.compare(value(a), value(b)));
        return sorted[(sorted.length - 1) / 2];
    }

    private static double value(Repeat repeat) {
        return repeat.summary().value(MetricId.OUTPUT_THROUGHPUT).orElse(Double.NaN);
    }
}
