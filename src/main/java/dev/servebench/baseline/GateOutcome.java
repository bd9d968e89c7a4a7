package dev.servebench.baseline;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The gate's comparison of one metric at one load point: both medians with their sample counts, the relative
 * change of the medians (signed as the raw difference: -0.118 = 11.8 % lower), the bootstrap interval of that
 * change and the t-test p-value where there were enough samples, and the verdict.
 *
 * @param method    how significance was judged, e.g. "Welch t-test + 95 % percentile bootstrap of the median
 *                  ratio (2000 resamples)"; names why not where nothing was tested
 * @param test      the test whose p-value the message shows, e.g. "Yuen t-test (20 % trimmed means)" or, for a
 *                  paired comparison, "Yuen paired test (20 % trimmed mean of log(B/A)), 12 rounds"
 * @param tolerance the metric's tolerated relative change (fraction)
 * @param alpha     significance level the p-value was compared with
 */
public record GateOutcome(
        MetricId metric,
        LoadPointKey point,
        double baselineMedian,
        int baselineCount,
        double currentMedian,
        int currentCount,
        double relativeChange,
        Optional<ConfidenceInterval> interval,
        OptionalDouble pValue,
        String method,
        double tolerance,
        double alpha,
        GateVerdict verdict,
        String test) implements GateCase {

    /** An outcome of the history gate, whose test is {@link YuenTest#NAME}. */
    public GateOutcome(MetricId metric, LoadPointKey point, double baselineMedian, int baselineCount,
            double currentMedian, int currentCount, double relativeChange, Optional<ConfidenceInterval> interval,
            OptionalDouble pValue, String method, double tolerance, double alpha, GateVerdict verdict) {
        this(metric, point, baselineMedian, baselineCount, currentMedian, currentCount, relativeChange, interval,
                pValue, method, tolerance, alpha, verdict, YuenTest.NAME);
    }

    public GateOutcome {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(pValue, "pValue");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(test, "test");
        if (baselineCount < 0 || currentCount < 0) {
            throw new IllegalArgumentException("sample counts must be >= 0");
        }
        if (pValue.isPresent() && !(pValue.getAsDouble() >= 0 && pValue.getAsDouble() <= 1)) {
            throw new IllegalArgumentException("p-value (" + pValue.getAsDouble() + ") must be in [0, 1]");
        }
        boolean tested = verdict == GateVerdict.REGRESSION || verdict == GateVerdict.IMPROVEMENT
                || verdict == GateVerdict.NO_CHANGE;
        if (tested && (pValue.isEmpty() || interval.isEmpty())) {
            throw new IllegalArgumentException(verdict + " needs a p-value and an interval");
        }
    }

    @Override
    public String subject() {
        return metric.id() + " @ " + point;
    }

    @Override
    public String group() {
        return point.toString();
    }

    /** One line naming the metric, load point, medians, change, interval, test, tolerance and verdict. */
    @Override
    public String message() {
        return GateMessages.line(subject(), metric.unit().symbol(), baselineMedian, baselineCount, currentMedian,
                currentCount, relativeChange, interval, pValue, method, test, tolerance, alpha, verdict);
    }
}
