package dev.servebench.spec;

import dev.servebench.metric.KernelMetric;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The kernel figures of one kernel benchmark run, as kernel expectations read them, or why there are none
 * (the kernel step was skipped, its result file is missing). Read from the runner's
 * {@code kernel-measurements.json} by {@code kernels.results.KernelMeasurementsJson}.
 *
 * @param absence why nothing was measured; when present, {@code values} is empty
 */
public record KernelMeasurements(Optional<String> absence, String source, List<Value> values) {

    /**
     * One figure at one parameter point.
     *
     * @param parameters every JMH parameter of the result
     * @param value      the figure computed from the median time of all measurement iterations
     * @param forks      the figure of each measurement iteration, per JMH fork: the repeats
     */
    public record Value(KernelMetric metric, Map<String, String> parameters, double value, List<List<Double>> forks) {
        public Value {
            Objects.requireNonNull(metric, "metric");
            parameters = Map.copyOf(parameters);
            forks = forks.stream().map(List::copyOf).toList();
        }

        /** Measurement iterations over all forks. */
        public int iterations() {
            return forks.stream().mapToInt(List::size).sum();
        }
    }

    public KernelMeasurements {
        Objects.requireNonNull(absence, "absence");
        Objects.requireNonNull(source, "source");
        values = List.copyOf(values);
        if (absence.isPresent() && !values.isEmpty()) {
            throw new IllegalArgumentException("kernel measurements with values cannot be absent: " + absence.get());
        }
    }

    /** No figures, and why: every kernel expectation is then not judged with this reason. */
    public static KernelMeasurements absent(String reason) {
        return new KernelMeasurements(Optional.of(reason), "", List.of());
    }

    /** @param source where the figures came from, named in verdict messages */
    public static KernelMeasurements of(String source, List<Value> values) {
        return new KernelMeasurements(Optional.empty(), source, values);
    }

    /** Every measured figure of {@code metric}, in file order. */
    public List<Value> of(KernelMetric metric) {
        return values.stream().filter(v -> v.metric() == metric).toList();
    }
}
