package dev.servebench.spec;

import dev.servebench.metric.KernelMetric;
import dev.servebench.metric.Unit;
import java.util.Objects;

/**
 * {@code KERNEL_METRIC@POINT CMP FACTOR x KERNEL_METRIC[@POINT]}, e.g. {@code nvfp4_dequant_gbps@backend=native,
 * output=bf16,layout=linear >= 0.8 x memcpy_gbps@bytes=256MiB}: a kernel held against a baseline measured in
 * the same run on the same machine, which holds on slow and fast machines alike.
 *
 * @param referencePoint the baseline's point: the checked point's parameters the baseline's benchmark has,
 *                       replaced by {@code writtenReference} ({@link KernelPoint#carriedTo})
 * @param writtenReference the parameters written after the reference metric (none when it has no '@')
 */
public record RelativeKernelExpectation(KernelMetric metric, KernelPoint point, Comparison comparison, double factor,
        KernelMetric referenceMetric, KernelPoint referencePoint, KernelPoint writtenReference,
        SourcePosition position) implements KernelExpectation {

    public RelativeKernelExpectation {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(referenceMetric, "referenceMetric");
        Objects.requireNonNull(referencePoint, "referencePoint");
        Objects.requireNonNull(writtenReference, "writtenReference");
        Objects.requireNonNull(position, "position");
        ExpectationChecks.requireSameUnit(metric.id(), metric.unit(), referenceMetric.id(), referenceMetric.unit());
        if (point.benchmark() != metric.benchmark() || referencePoint.benchmark() != referenceMetric.benchmark()) {
            throw new IllegalArgumentException("a point of another benchmark than its metric's");
        }
        if (!referencePoint.equals(point.carriedTo(referenceMetric.benchmark(), writtenReference))) {
            throw new IllegalArgumentException("reference point " + referencePoint + " is not " + point
                    + " carried over with " + writtenReference);
        }
        ExpectationChecks.requireFactor(factor);
        if (metric == referenceMetric && point.equals(referencePoint)) {
            throw new IllegalArgumentException("compares " + metric.id() + "@" + point + " with itself");
        }
    }

    public Unit unit() {
        return metric.unit();
    }

    /** The baseline as written: {@code moe_gflops@backend=ggml-f16}, or just the metric. */
    public String referenceText() {
        return referenceMetric.id() + (writtenReference.parameters().isEmpty() ? "" : "@" + writtenReference);
    }

    @Override
    public String displayName() {
        return metric.id() + "@" + point + " " + limitText();
    }

    @Override
    public String limitText() {
        return comparison.symbol() + " " + Values.plain(factor) + " × " + referenceText();
    }
}
