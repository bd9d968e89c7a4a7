package dev.servebench.perf;

import dev.servebench.results.PointMeasurement;

import java.util.Objects;

/** What measuring one load point of an interleaved run gave: its repeats, or why it has none. */
public sealed interface PointOutcome {

    record Measured(PointMeasurement measurement) implements PointOutcome {
        public Measured {
            Objects.requireNonNull(measurement, "measurement");
        }
    }

    /** The point stopped at {@code cause}; its earlier repeats are discarded, as a sequential run's would be. */
    record Failed(Exception cause) implements PointOutcome {
        public Failed {
            Objects.requireNonNull(cause, "cause");
        }
    }
}
