package dev.servebench.report.html;

import java.util.Objects;

/**
 * What a report section shows: the data it was built from, or why there is none. A section whose input is
 * missing still appears and says why, so a reader never mistakes an absent file for an empty result.
 */
public sealed interface Input<T> {

    record Found<T>(T value) implements Input<T> {
        public Found {
            Objects.requireNonNull(value, "value");
        }
    }

    /** @param reason what was looked for and where, e.g. "no verdicts.json in reports/perf/x" */
    record Missing<T>(String reason) implements Input<T> {
        public Missing {
            if (reason == null || reason.isBlank()) {
                throw new IllegalArgumentException("a missing input needs a reason");
            }
        }
    }

    static <T> Input<T> found(T value) {
        return new Found<>(value);
    }

    static <T> Input<T> missing(String reason) {
        return new Missing<>(reason);
    }
}
