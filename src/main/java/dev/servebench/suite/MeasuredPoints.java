package dev.servebench.suite;

import dev.servebench.roofline.PointBound;
import java.util.function.Function;
import dev.servebench.results.PointMeasurement;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import dev.servebench.verdict.PointValidity;
import dev.servebench.verdict.ValidityCheck;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the suite knows about each load point so far: its measurement and validity, or why it has none.
 * Tests of a point run after its "measure" test; relative expectations after all points.
 */
final class MeasuredPoints implements Measurements {

    sealed interface State permits Measured, Failed {
    }

    record Measured(PointMeasurement measurement, List<ValidityCheck> validity) implements State {
        boolean valid() {
            return PointValidity.valid(validity);
        }
    }

    record Failed(String reason) implements State {
    }

    private final Map<LoadPointKey, State> states = new ConcurrentHashMap<>();
    private final Function<LoadPointKey, PointBound> bounds;

    /** Without speed-of-light bounds: bound expectations are not judged. */
    MeasuredPoints() {
        this(point -> new PointBound.Unbounded("no speed-of-light bounds were given to this judgement"));
    }

    /** @param bounds each point's bound (spec.LoadPointBounds), for bound expectations */
    MeasuredPoints(Function<LoadPointKey, PointBound> bounds) {
        this.bounds = bounds;
    }

    @Override
    public PointBound bound(LoadPointKey point) {
        return bounds.apply(point);
    }

    void measured(LoadPointKey key, PointMeasurement measurement, List<ValidityCheck> validity) {
        states.put(key, new Measured(measurement, validity));
    }

    void failed(LoadPointKey key, String reason) {
        states.put(key, new Failed(reason));
    }

    /** Why expectations at {@code key} cannot be judged, or null when they can. */
    String notJudgeable(LoadPointKey key) {
        State state = states.get(key);
        return switch (state) {
            case null -> "load point " + key + " was not measured";
            case Failed failed -> "load point " + key + " could not be measured: " + failed.reason();
            case Measured measured when !measured.valid() -> "load point " + key + " is invalid, its numbers are"
                    + " not judged: " + String.join("; ", measured.validity().stream().filter(c -> !c.holds())
                    .map(c -> c.name() + " (" + c.explanation() + ")").toList());
            case Measured measured -> null;
        };
    }

    State state(LoadPointKey key) {
        return states.get(key);
    }

    /** A point that was not measured says why; a measured one lacks a metric for the metric's own reasons. */
    @Override
    public Optional<String> absence(MetricId metric, LoadPointKey point) {
        return states.get(point) instanceof Measured ? Optional.empty() : Optional.ofNullable(notJudgeable(point));
    }

    @Override
    public Optional<String> estimate(MetricId metric, LoadPointKey point) {
        return states.get(point) instanceof Measured measured ? measured.measurement().estimate(metric)
                : Optional.empty();
    }

    @Override
    public OptionalDouble value(MetricId metric, LoadPointKey point) {
        return states.get(point) instanceof Measured measured ? measured.measurement().median(metric)
                : OptionalDouble.empty();
    }
}
