package dev.servebench.baseline;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The regression gate's statistics for one metric at one load point. The change is current median against
 * baseline median; it counts as a regression only when it is worse than the metric's tolerance in the metric's
 * bad direction AND significant by both Yuen's trimmed-means t-test (two-sided p &lt; alpha) AND the percentile bootstrap
 * interval of the change lying entirely on the bad side of zero. Requiring both keeps false alarms rare with
 * the 3–5 repeats a CI job affords, where either test alone misfires (docs/gate.md).
 */
public final class GateComparison {

    /** Fewer repeats than this on either side leave no variance to test with. */
    public static final int MIN_SAMPLES = 2;

    static final String METHOD = YuenTest.NAME + " + " + percentLabel(MedianRatioBootstrap.DEFAULT_CONFIDENCE)
            + " percentile bootstrap of the median ratio (" + MedianRatioBootstrap.DEFAULT_RESAMPLES + " resamples)";

    private GateComparison() {
    }

    /**
     * Compares the repeats of one metric at one load point.
     *
     * @param baseline one value per baseline repeat (finite)
     * @param current  one value per current repeat (finite)
     * @param seed     seeds the bootstrap, so a comparison is reproducible
     */
    public static GateOutcome compare(MetricId metric, LoadPointKey point, double[] baseline, double[] current,
            Tolerance tolerance, long seed) {
        if (metric.direction() == Direction.INFORMATIONAL) {
            return reported(metric, point, baseline, current, tolerance, GatedMetrics.whyNotGated(metric));
        }
        double[] base = Samples.checkedCopy("baseline", baseline);
        double[] curr = Samples.checkedCopy("current", current);
        double baselineMedian = Samples.median(base);
        double currentMedian = Samples.median(curr);
        double change = base.length == 0 || curr.length == 0
                ? Double.NaN
                : Samples.relativeChange(baselineMedian, currentMedian);
        double allowed = tolerance.fractionFor(metric);

        if (base.length < MIN_SAMPLES || curr.length < MIN_SAMPLES) {
            String why = "n = " + Math.min(base.length, curr.length) + " < " + MIN_SAMPLES
                    + " on a side: no significance test";
            return new GateOutcome(metric, point, baselineMedian, base.length, currentMedian, curr.length, change,
                    Optional.empty(), OptionalDouble.empty(), why, allowed, tolerance.alpha(),
                    GateVerdict.INSUFFICIENT_DATA);
        }

        double p = YuenTest.pValue(base, curr);
        ConfidenceInterval interval = MedianRatioBootstrap.interval(base, curr,
                MedianRatioBootstrap.DEFAULT_RESAMPLES, MedianRatioBootstrap.DEFAULT_CONFIDENCE, seed);
        GateVerdict verdict = judge(metric.direction(), change, interval, p, allowed, tolerance.alpha());
        return new GateOutcome(metric, point, baselineMedian, base.length, currentMedian, curr.length, change,
                Optional.of(interval), OptionalDouble.of(p), METHOD, allowed, tolerance.alpha(), verdict);
    }

    /** Medians and change of a metric that is reported but does not decide the gate; {@code why} says so. */
    public static GateOutcome reported(MetricId metric, LoadPointKey point, double[] baseline, double[] current,
            Tolerance tolerance, String why) {
        double[] base = Samples.checkedCopy("baseline", baseline);
        double[] curr = Samples.checkedCopy("current", current);
        double baselineMedian = Samples.median(base);
        double currentMedian = Samples.median(curr);
        double change = base.length == 0 || curr.length == 0
                ? Double.NaN
                : Samples.relativeChange(baselineMedian, currentMedian);
        return new GateOutcome(metric, point, baselineMedian, base.length, currentMedian, curr.length, change,
                Optional.empty(), OptionalDouble.empty(), why, tolerance.fractionFor(metric), tolerance.alpha(),
                GateVerdict.NOT_JUDGED);
    }

    static GateVerdict judge(Direction direction, double change, ConfidenceInterval interval, double p,
            double allowed, double alpha) {
        // "worsening" > 0 means worse, whichever way the metric's good direction points
        double worsening = switch (direction) {
            case HIGHER_IS_BETTER -> -change;
            case LOWER_IS_BETTER -> change;
            case INFORMATIONAL -> throw new IllegalStateException("informational metrics are not judged");
        };
        boolean intervalOnWorseSide = direction == Direction.HIGHER_IS_BETTER
                ? interval.entirelyBelowZero() : interval.entirelyAboveZero();
        boolean intervalOnBetterSide = direction == Direction.HIGHER_IS_BETTER
                ? interval.entirelyAboveZero() : interval.entirelyBelowZero();
        boolean significant = p < alpha;
        if (significant && intervalOnWorseSide && worsening > allowed) {
            return GateVerdict.REGRESSION;
        }
        if (significant && intervalOnBetterSide && -worsening > allowed) {
            return GateVerdict.IMPROVEMENT;
        }
        return GateVerdict.NO_CHANGE;
    }

    private static String percentLabel(double confidence) {
        return Math.round(confidence * 100) + " %";
    }
}
