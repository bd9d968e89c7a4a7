package dev.servebench.spec;

import dev.servebench.metric.Unit;

/**
 * The checks and text that serving and kernel expectations share, so a threshold, a factor or a unit is refused,
 * and a limit written, the same way for both kinds.
 */
final class ExpectationChecks {

    private ExpectationChecks() {
    }

    /** An absolute expectation states the metric's own unit, so a reader knows what the number means. */
    static void requireOwnUnit(String metricId, Unit metricUnit, Unit written) {
        if (written != metricUnit) {
            throw new IllegalArgumentException(metricId + " is in " + metricUnit.symbol() + ", not " + written.symbol());
        }
    }

    /** A relative expectation compares like with like. */
    static void requireSameUnit(String metricId, Unit metricUnit, String referenceId, Unit referenceUnit) {
        if (metricUnit != referenceUnit) {
            throw new IllegalArgumentException(metricId + " (" + metricUnit.symbol() + ") and " + referenceId + " ("
                    + referenceUnit.symbol() + ") have different units");
        }
    }

    static void requireThreshold(double threshold) {
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("threshold (" + threshold + ") must be a finite number >= 0");
        }
    }

    static void requireFactor(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("factor (" + factor + ") must be a finite number > 0");
        }
    }

    /** An absolute limit as written after the metric, e.g. {@code ≥ 600 tok/s}. */
    static String absoluteLimit(Comparison comparison, double threshold, Unit unit) {
        return comparison.symbol() + " " + Values.plain(threshold) + " " + unit.symbol();
    }
}
