package dev.servebench.baseline;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the paired statistics ({@link PairedComparison#judge}) conclude about one quantity measured on both sides
 * in the same rounds, whatever the quantity is: a serving metric at a load point, a kernel figure at a kernel
 * point.
 *
 * @param rounds   rounds in which both sides measured it (the pairs)
 * @param medianA  median of A's values over those rounds
 * @param medianB  median of B's values
 * @param change   median ratio B/A − 1 (−0.118 = B 11.8 % lower); NaN without pairs
 * @param interval percentile bootstrap interval of {@code change}, when tested
 * @param pValue   the paired test's two-sided p-value, when tested
 * @param method   how it was judged, or why it was not
 * @param test     the test whose p-value the message shows, with the rounds
 * @param tolerance the tolerated relative change (fraction)
 * @param alpha    the significance level {@code pValue} was held to
 */
public record PairedJudgement(int rounds, double medianA, double medianB, double change,
        Optional<ConfidenceInterval> interval, OptionalDouble pValue, String method, String test, double tolerance,
        double alpha, GateVerdict verdict) {

    public PairedJudgement {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(pValue, "pValue");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(verdict, "verdict");
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 0");
        }
        if (verdict == GateVerdict.NOT_JUDGED) {
            throw new IllegalArgumentException("a paired judgement judges; NOT_JUDGED is for reported metrics");
        }
    }

    /** This judgement as the serving gate's outcome of {@code metric} at {@code point}. */
    public GateOutcome outcome(MetricId metric, LoadPointKey point) {
        return new GateOutcome(metric, point, medianA, rounds, medianB, rounds, change, interval, pValue, method,
                tolerance, alpha, verdict, test);
    }

    /** The same judgement with {@code why} in place of its method: says why it could not be made. */
    public PairedJudgement withMethod(String why) {
        return new PairedJudgement(rounds, medianA, medianB, change, interval, pValue, why, test, tolerance, alpha,
                verdict);
    }
}
