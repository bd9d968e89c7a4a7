package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import java.util.List;
import java.util.Objects;

/**
 * {@code METRIC CMP NUMBER UNIT @ POINT}, e.g. {@code output_throughput >= 600 tok/s @ concurrency=256}.
 *
 * @param threshold the limit, in {@code unit}
 * @param unit      always the metric's own unit: specs state it so a reader knows what the number means
 */
public record AbsoluteExpectation(MetricId metric, Comparison comparison, double threshold, Unit unit,
                                  LoadPointKey point, SourcePosition position) implements Expectation {

    public AbsoluteExpectation {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(position, "position");
        ExpectationChecks.requireOwnUnit(metric.id(), metric.unit(), unit);
        ExpectationChecks.requireThreshold(threshold);
    }

    @Override
    public String displayName() {
        return metric.id() + " " + limitText() + " @ " + point;
    }

    @Override
    public List<LoadPointKey> points() {
        return List.of(point);
    }

    /** The limit as written after the metric, e.g. {@code ≥ 600 tok/s}. */
    @Override
    public String limitText() {
        return ExpectationChecks.absoluteLimit(comparison, threshold, unit);
    }
}
