package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import java.util.List;
import java.util.Objects;

/**
 * {@code METRIC@POINT CMP FACTOR x METRIC@POINT}, e.g.
 * {@code output_throughput@concurrency=256 >= 2.5 x output_throughput@concurrency=64}: a scaling claim that
 * holds on slow and fast machines alike, where an absolute number would only fit one.
 *
 * @param factor          the multiple of the reference value, > 0
 * @param referenceMetric the metric on the right; in the same unit as {@code metric}
 */
public record RelativeExpectation(MetricId metric, LoadPointKey point, Comparison comparison, double factor,
                                  MetricId referenceMetric, LoadPointKey referencePoint, SourcePosition position)
        implements Expectation {

    public RelativeExpectation {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(referenceMetric, "referenceMetric");
        Objects.requireNonNull(referencePoint, "referencePoint");
        Objects.requireNonNull(position, "position");
        ExpectationChecks.requireSameUnit(metric.id(), metric.unit(), referenceMetric.id(), referenceMetric.unit());
        ExpectationChecks.requireFactor(factor);
        if (metric == referenceMetric && point.equals(referencePoint)) {
            throw new IllegalArgumentException("compares " + metric.id() + "@" + point + " with itself");
        }
    }

    /** The unit of both sides. */
    public Unit unit() {
        return metric.unit();
    }

    @Override
    public String displayName() {
        return "relative: " + metric.id() + "@" + point + " " + limitText();
    }

    @Override
    public List<LoadPointKey> points() {
        return point.equals(referencePoint) ? List.of(point) : List.of(point, referencePoint);
    }

    /** The right-hand side with its comparison, e.g. {@code ≥ 2.5 × output_throughput@concurrency=64}. */
    @Override
    public String limitText() {
        return comparison.symbol() + " " + Values.plain(factor) + " × " + referenceMetric.id() + "@" + referencePoint;
    }
}
