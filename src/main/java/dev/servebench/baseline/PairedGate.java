package dev.servebench.baseline;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The decision of an A/B comparison: every gated metric at every load point judged on its paired rounds
 * ({@link PairedComparison}), the other measured metrics reported, then Holm's correction across the gated
 * ones. A gated metric × load point with fewer than {@link PairedComparison#MIN_ROUNDS} rounds in which
 * both sides measured it is kept as {@link GateVerdict#INSUFFICIENT_DATA}, never dropped; so is a "no change"
 * at a point where more rounds were disturbed than may be set aside ({@link DisturbedRounds#tooMany()}).
 */
public final class PairedGate {

    private PairedGate() {
    }

    public static List<GateOutcome> judge(List<PairedPoint> points, Tolerance tolerance) {
        List<GateOutcome> outcomes = new ArrayList<>();
        List<double[][]> pairs = new ArrayList<>();
        List<DisturbedRounds> setAside = new ArrayList<>();
        for (PairedPoint point : points) {
            // A point neither side ever measured keeps all its gated comparisons, unjudged: it must not vanish.
            boolean pointMeasured = point.a().stream().anyMatch(round -> !round.isEmpty())
                    || point.b().stream().anyMatch(round -> !round.isEmpty());
            DisturbedRounds disturbed = DisturbedRounds.of(point);
            for (MetricId metric : MetricId.values()) {
                if (metric.direction() == Direction.INFORMATIONAL) {
                    continue;
                }
                double[][] paired = pairs(point, metric, disturbed);
                boolean seen = seen(point.a(), metric) || seen(point.b(), metric);
                if (GatedMetrics.gated(metric) && (seen || !pointMeasured)) {
                    GateOutcome outcome = PairedComparison.compare(metric, point.point(), paired[0], paired[1],
                            tolerance, seed(metric, point.point()));
                    outcomes.add(noted(paired[0].length < PairedComparison.MIN_ROUNDS
                            ? unpaired(outcome, point, metric) : outcome, disturbed));
                    pairs.add(paired);
                    setAside.add(disturbed);
                } else if (!GatedMetrics.gated(metric) && paired[0].length > 0) {
                    outcomes.add(noted(GateComparison.reported(metric, point.point(), paired[0], paired[1],
                            tolerance, GatedMetrics.whyNotGated(metric)), disturbed));
                    pairs.add(paired);
                    setAside.add(disturbed);
                }
            }
        }
        List<GateOutcome> corrected = Holm.correct(outcomes, tolerance.alpha(), (index, alpha) -> {
            GateOutcome outcome = outcomes.get(index);
            return noted(PairedComparison.compare(outcome.metric(), outcome.point(), pairs.get(index)[0],
                    pairs.get(index)[1], tolerance.withAlpha(alpha), seed(outcome.metric(), outcome.point())),
                    setAside.get(index));
        });
        List<GateOutcome> judged = new ArrayList<>(corrected.size());
        for (int i = 0; i < corrected.size(); i++) {
            judged.add(trusted(corrected.get(i), setAside.get(i)));
        }
        return judged;
    }

    /**
     * A "no change" at a point whose machine disturbed more rounds than may be set aside is not evidence that
     * nothing changed: the disturbed rounds that had to be kept widen the spread a change must stand out of.
     * Measured: a 15 %-slower B recorded beside Maven builds, 9 of its 12 rounds disturbed, was judged "no
     * change" at every point (docs/gate.md, "Disturbed rounds"). Such a verdict is left unjudged, so the
     * comparison cannot pass on it; a regression or an improvement found despite the disturbance stands.
     */
    private static GateOutcome trusted(GateOutcome outcome, DisturbedRounds disturbed) {
        if (outcome.verdict() != GateVerdict.NO_CHANGE || !disturbed.tooMany()) {
            return outcome;
        }
        String measured = outcome.test() + " p = " + GateMessages.probability(outcome.pValue().orElseThrow())
                + ", tolerance " + GateMessages.setting(outcome.tolerance()) + ": no change shown";
        return new GateOutcome(outcome.metric(), outcome.point(), outcome.baselineMedian(), outcome.baselineCount(),
                outcome.currentMedian(), outcome.currentCount(), outcome.relativeChange(), outcome.interval(),
                outcome.pValue(), "not judged: " + disturbed.tooManyReason() + " (" + measured + ")",
                outcome.tolerance(), outcome.alpha(), GateVerdict.INSUFFICIENT_DATA, outcome.test());
    }

    /** The values of rounds in which both sides have {@code metric} and that were not disturbed, as {A, B}. */
    private static double[][] pairs(PairedPoint point, MetricId metric, DisturbedRounds disturbed) {
        List<double[]> both = new ArrayList<>();
        for (int round = 0; round < point.rounds(); round++) {
            if (disturbed.contains(round)) {
                continue;
            }
            Double a = point.a().get(round).get(metric);
            Double b = point.b().get(round).get(metric);
            if (a != null && b != null && Double.isFinite(a) && Double.isFinite(b)) {
                both.add(new double[] {a, b});
            }
        }
        return new double[][] {both.stream().mapToDouble(p -> p[0]).toArray(),
                both.stream().mapToDouble(p -> p[1]).toArray()};
    }

    private static boolean seen(List<Map<MetricId, Double>> side, MetricId metric) {
        return side.stream().anyMatch(round -> round.containsKey(metric));
    }

    /** Says how many rounds each side measured, so "missing on a side" reads as such. */
    private static GateOutcome unpaired(GateOutcome outcome, PairedPoint point, MetricId metric) {
        long a = point.a().stream().filter(round -> round.containsKey(metric)).count();
        long b = point.b().stream().filter(round -> round.containsKey(metric)).count();
        return withMethod(outcome, outcome.method() + " (of " + point.rounds() + " rounds, A measured it in " + a
                + ", B in " + b + ")");
    }

    /** Says which rounds were set aside as disturbed, when any were, in the method and beside the test. */
    private static GateOutcome noted(GateOutcome outcome, DisturbedRounds disturbed) {
        if (disturbed.isEmpty()) {
            return outcome;
        }
        String note = disturbed.describe();
        return withMethod(outcome, outcome.method() + "; " + note, outcome.test() + " (" + note + ")");
    }

    private static GateOutcome withMethod(GateOutcome outcome, String why) {
        return withMethod(outcome, why, outcome.test());
    }

    private static GateOutcome withMethod(GateOutcome outcome, String why, String test) {
        return new GateOutcome(outcome.metric(), outcome.point(), outcome.baselineMedian(), outcome.baselineCount(),
                outcome.currentMedian(), outcome.currentCount(), outcome.relativeChange(), outcome.interval(),
                outcome.pValue(), why, outcome.tolerance(), outcome.alpha(), outcome.verdict(), test);
    }

    private static long seed(MetricId metric, LoadPointKey point) {
        return (metric.id() + "@" + point).hashCode();
    }
}
