package dev.servebench.spec;

import dev.servebench.metric.KernelMetric;
import dev.servebench.metric.Unit;
import java.util.Objects;

/**
 * {@code KERNEL_METRIC CMP NUMBER UNIT @ POINT}, e.g. {@code moe_gflops >= 50 GFLOP/s @ backend=native,tokens=64}:
 * an absolute speed, which fits only the machine it was measured on.
 *
 * @param unit always the metric's own unit
 */
public record AbsoluteKernelExpectation(KernelMetric metric, Comparison comparison, double threshold, Unit unit,
        KernelPoint point, SourcePosition position) implements KernelExpectation {

    public AbsoluteKernelExpectation {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(position, "position");
        ExpectationChecks.requireOwnUnit(metric.id(), metric.unit(), unit);
        if (point.benchmark() != metric.benchmark()) {
            throw new IllegalArgumentException(metric.id() + " is measured by " + metric.benchmark().className()
                    + ", not " + point.benchmark().className());
        }
        ExpectationChecks.requireThreshold(threshold);
    }

    @Override
    public String displayName() {
        return metric.id() + " " + limitText() + " @ " + point;
    }

    @Override
    public String limitText() {
        return ExpectationChecks.absoluteLimit(comparison, threshold, unit);
    }
}
