package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import java.util.OptionalDouble;

/** Measured metric values by load point, as an expectation reads them; empty = not measured. */
@FunctionalInterface
public interface Measurements {

    OptionalDouble value(MetricId metric, LoadPointKey point);
}
