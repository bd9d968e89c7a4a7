package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import java.util.List;
import java.util.Objects;

/**
 * {@code METRIC CMP FACTOR x BOUND @ POINT}, e.g. {@code output_throughput >= 0.25 x roofline_output_throughput
 * @ concurrency=1}: a metric against a multiple of the point's speed-of-light bound, from the spec's
 * {@code model:} and {@code hardware:}. Without a bound at the point it is not judged, with the reason.
 *
 * @param factor the multiple of the bound, > 0
 */
public record BoundExpectation(MetricId metric, Comparison comparison, double factor, BoundOperand bound,
                               LoadPointKey point, SourcePosition position) implements Expectation {

    public BoundExpectation {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(bound, "bound");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(position, "position");
        if (metric.unit() != bound.unit()) {
            throw new IllegalArgumentException(metric.id() + " is in " + metric.unit().symbol() + ", " + bound.id()
                    + " in " + bound.unit().symbol());
        }
        ExpectationChecks.requireFactor(factor);
    }

    /** The unit of the metric and the bound. */
    public Unit unit() {
        return metric.unit();
    }

    @Override
    public String displayName() {
        return metric.id() + " " + limitText() + " @ " + point;
    }

    @Override
    public List<LoadPointKey> points() {
        return List.of(point);
    }

    /** e.g. {@code ≥ 0.25 × roofline_output_throughput}. */
    @Override
    public String limitText() {
        return comparison.symbol() + " " + Values.plain(factor) + " × " + bound.id();
    }
}
