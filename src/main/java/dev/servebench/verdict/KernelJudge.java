package dev.servebench.verdict;

import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import dev.servebench.spec.AbsoluteKernelExpectation;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.KernelPoint;
import dev.servebench.spec.RelativeKernelExpectation;
import dev.servebench.verdict.Judge.Side;
import dev.servebench.verdict.Verdict.Reading;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Kernel expectations, judged with {@link Judge}'s comparisons once each side's figure is found: the one
 * measured result whose parameters include the expectation's point. No result there, or several (the point
 * leaves out a parameter the run varied), is not judged with what the run did measure. Pure.
 */
final class KernelJudge {

    /** Measured points listed in a "not measured" reason; a full run has dozens. */
    private static final int LISTED = 8;

    private KernelJudge() {
    }

    static Verdict verdict(KernelExpectation expectation, KernelMeasurements measurements) {
        Verdict point = switch (expectation) {
            case AbsoluteKernelExpectation e -> Judge.threshold(side(e.metric(), e.point(), measurements),
                    e.comparison(), e.threshold(), e.unit(), e.limitText());
            case RelativeKernelExpectation e -> Judge.ratio(side(e.metric(), e.point(), measurements),
                    side(e.referenceMetric(), e.referencePoint(), measurements), e.comparison(), e.factor(), e.unit(),
                    e.limitText(), e.metric().id());
        };
        if (point.outcome() instanceof Verdict.NotJudged) {
            return point;
        }
        return KernelUncertainty.judge(expectation, point, figure(expectation.metric(), expectation.point(),
                measurements).orElseThrow(), switch (expectation) {
                    case AbsoluteKernelExpectation e -> Optional.empty();
                    case RelativeKernelExpectation e -> figure(e.referenceMetric(), e.referencePoint(), measurements);
                });
    }

    /** The measured figure at {@code point}, when exactly one result is there. */
    static Optional<KernelMeasurements.Value> figure(KernelMetric metric, KernelPoint point,
            KernelMeasurements measurements) {
        List<KernelMeasurements.Value> matching = matching(metric, point, measurements);
        return matching.size() == 1 ? Optional.of(matching.getFirst()) : Optional.empty();
    }

    private static List<KernelMeasurements.Value> matching(KernelMetric metric, KernelPoint point,
            KernelMeasurements measurements) {
        return measurements.of(metric).stream().filter(v -> point.matches(v.parameters())).toList();
    }

    private static Side side(KernelMetric metric, KernelPoint point, KernelMeasurements measurements) {
        String name = metric.id() + "@" + point;
        if (measurements.absence().isPresent()) {
            Reading reading = new Reading(metric.id(), point.toString(), OptionalDouble.empty());
            return new Side(name, reading, Judge.unusable(name, reading, measurements.absence()));
        }
        List<KernelMeasurements.Value> matching = matching(metric, point, measurements);
        if (matching.size() > 1) {
            Reading reading = new Reading(metric.id(), point.toString(), OptionalDouble.empty());
            return new Side(name, reading, Optional.of(name + " matches " + matching.size() + " measured results ("
                    + listed(metric.benchmark(), matching) + "): name the parameters that tell them apart"));
        }
        if (matching.isEmpty()) {
            Reading reading = new Reading(metric.id(), point.toString(), OptionalDouble.empty());
            List<KernelMeasurements.Value> all = measurements.of(metric);
            String measured = all.isEmpty() ? "it has no " + metric.benchmark().className() + " results"
                    : "it measured " + metric.id() + " at " + listed(metric.benchmark(), all);
            return new Side(name, reading, Judge.unusable(name, reading,
                    Optional.of("not in the kernel run " + measurements.source() + "; " + measured)));
        }
        KernelMeasurements.Value value = matching.getFirst();
        Reading reading = new Reading(metric.id(), point.toString(), OptionalDouble.of(value.value()));
        return new Side(name, reading, Judge.unusable(name, reading, Optional.empty()));
    }

    private static String listed(KernelBenchmark benchmark, List<KernelMeasurements.Value> values) {
        String shown = values.stream().limit(LISTED).map(v -> describe(benchmark, v.parameters()))
                .collect(Collectors.joining(" | "));
        return values.size() <= LISTED ? shown : shown + " | … (" + values.size() + " in all)";
    }

    /** A measured result's parameters as a point is written, parameters the spec cannot name included. */
    static String describe(KernelBenchmark benchmark, Map<String, String> parameters) {
        return parameters.entrySet().stream().sorted(Map.Entry.comparingByKey(
                        java.util.Comparator.comparingInt((String k) -> {
                            int index = benchmark.parameterNames().indexOf(k);
                            return index < 0 ? Integer.MAX_VALUE : index;
                        }).thenComparing(k -> k)))
                .map(e -> e.getKey() + "=" + benchmark.parameter(e.getKey())
                        .filter(p -> p.canonical(e.getValue()).isPresent()).map(p -> p.display(e.getValue()))
                        .orElse(e.getValue()))
                .collect(Collectors.joining(","));
    }
}
