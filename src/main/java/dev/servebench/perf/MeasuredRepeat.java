package dev.servebench.perf;

import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.ServingSummary;
import dev.servebench.results.PointContext;
import dev.servebench.results.RunDescription;
import dev.servebench.spec.LoadPointKey;
import java.util.Objects;

/**
 * One measured repeat as its summary file states it, for a front end to show.
 *
 * @param firstFailure the first failed request's error, {@code (none)} when none failed
 */
public record MeasuredRepeat(LoadPointKey key, int repeat, RunDescription description, LoadPoint point,
                             ServingSummary summary, ClientUsage clientUsage, PointContext context,
                             String firstFailure) {
    public MeasuredRepeat {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(clientUsage, "clientUsage");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(firstFailure, "firstFailure");
    }

    /** Whether enough of its requests succeeded (the spec's {@code validity.min_completed}). */
    public boolean valid() {
        return context.validity().valid();
    }
}
