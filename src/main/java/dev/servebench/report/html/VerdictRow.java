package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson.Outcome;
import java.util.Objects;

/**
 * One line of {@code verdicts.json}: an expectation, validity condition or cross-check and how it ended.
 *
 * @param kind   expectation, validity or cross_check (shown as written)
 * @param point  the load point it judged, or "" for run-wide checks
 * @param reason the evaluated comparison, or the failure or abort message
 */
public record VerdictRow(String name, String kind, String point, Outcome outcome, String reason) {

    public VerdictRow {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a verdict needs a name");
        }
        Objects.requireNonNull(kind, "kind of " + name);
        Objects.requireNonNull(point, "point of " + name);
        Objects.requireNonNull(outcome, "outcome of " + name);
        Objects.requireNonNull(reason, "reason of " + name);
    }
}
