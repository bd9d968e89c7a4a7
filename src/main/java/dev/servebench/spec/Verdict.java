package dev.servebench.spec;

import java.util.Objects;

/**
 * The outcome of one expectation against measured values.
 *
 * @param holds       whether the expectation is met
 * @param measured    the value checked (NaN when it was not measured)
 * @param limit       the value it was compared with: the threshold, or factor × the reference value
 * @param explanation one line with the numbers, for a failure message or a report
 */
public record Verdict(boolean holds, double measured, double limit, String explanation) {

    public Verdict {
        Objects.requireNonNull(explanation, "explanation");
    }
}
