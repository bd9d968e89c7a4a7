package dev.servebench.spec;

import dev.servebench.roofline.PointBound;
import dev.servebench.metric.MetricId;
import java.util.Optional;
import java.util.OptionalDouble;

/** Measured metric values by load point, as an expectation reads them; empty = not measured. */
@FunctionalInterface
public interface Measurements {

    OptionalDouble value(MetricId metric, LoadPointKey point);

    /**
     * Why {@link #value} is empty for {@code metric} at {@code point}, when the source knows (e.g. the point
     * could not be measured): the verdict that cannot be judged says so.
     */
    default Optional<String> absence(MetricId metric, LoadPointKey point) {
        return Optional.empty();
    }

    /**
     * Why {@link #value} of {@code metric} at {@code point} is an estimate, when it is (an input count from
     * text prompts' words, see {@code ServingSummary.estimate}): the verdict's message says so.
     */
    default Optional<String> estimate(MetricId metric, LoadPointKey point) {
        return Optional.empty();
    }

    /**
     * The speed-of-light bound at {@code point} ({@link LoadPointBounds}), or why there is none; a source that
     * knows no bounds has none.
     */
    default PointBound bound(LoadPointKey point) {
        return new PointBound.Unbounded("no speed-of-light bounds were given to this judgement");
    }
}
