package dev.servebench.baseline;

import java.util.ArrayList;
import java.util.List;

/**
 * The decision of a kernel A/B comparison: each kernel point's gated figure ({@link
 * dev.servebench.metric.KernelMetric#gated()}) judged on its paired rounds with the serving comparison's
 * statistics ({@link PairedComparison#judge}), then Holm's correction across them. A point with fewer than
 * {@link PairedComparison#MIN_ROUNDS} rounds in which both sides' forks measured it stays, as {@link
 * GateVerdict#INSUFFICIENT_DATA}.
 */
public final class KernelPairedGate {

    /**
     * The tolerated change of a kernel figure: 5 %, as the serving gate's whole-run throughputs. A figure is a
     * rate averaged over a whole fork (seconds of calls), the steadiest kind of measurement; a kernel change
     * worth stopping a merge for is larger than that, and the acceptance's 15 % slowdown three times it.
     */
    public static final double DEFAULT_TOLERANCE = 0.05;

    private KernelPairedGate() {
    }

    /**
     * @param tolerance the tolerated relative change of every figure (fraction, ≥ 0)
     * @param alpha     the family-wise significance level, in (0, 0.5)
     */
    public static List<KernelOutcome> judge(List<KernelPairedPoint> points, double tolerance, double alpha) {
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance " + tolerance + "; expected a finite fraction >= 0");
        }
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("alpha " + alpha + "; expected a value in (0, 0.5)");
        }
        List<KernelOutcome> outcomes = new ArrayList<>();
        List<KernelPairedPoint> judged = new ArrayList<>();
        List<double[][]> pairs = new ArrayList<>();
        for (KernelPairedPoint point : points) {
            if (point.metric().gated()) {
                double[][] paired = pairs(point);
                outcomes.add(outcome(point, paired, tolerance, alpha));
                judged.add(point);
                pairs.add(paired);
            }
        }
        return Holm.correct(outcomes, alpha,
                (index, held) -> outcome(judged.get(index), pairs.get(index), tolerance, held));
    }

    private static KernelOutcome outcome(KernelPairedPoint point, double[][] paired, double tolerance, double alpha) {
        PairedJudgement judgement = PairedComparison.judge(point.subject(), paired[0], paired[1],
                point.metric().direction(), tolerance, alpha, point.subject().hashCode());
        if (judgement.verdict() == GateVerdict.INSUFFICIENT_DATA) {
            // Says how many forks of each side measured it, so "a side's forks failed" reads as such.
            long a = point.a().stream().filter(v -> !Double.isNaN(v)).count();
            long b = point.b().stream().filter(v -> !Double.isNaN(v)).count();
            judgement = judgement.withMethod(judgement.method() + " (of " + point.rounds() + " rounds, A measured it in "
                    + a + ", B in " + b + ")");
        }
        return new KernelOutcome(point.metric(), point.point(), judgement);
    }

    /** The values of rounds in which both sides measured the figure, as {A, B}. */
    private static double[][] pairs(KernelPairedPoint point) {
        List<double[]> both = new ArrayList<>();
        for (int round = 0; round < point.rounds(); round++) {
            double a = point.a().get(round);
            double b = point.b().get(round);
            if (!Double.isNaN(a) && !Double.isNaN(b)) {
                both.add(new double[] {a, b});
            }
        }
        return new double[][] {both.stream().mapToDouble(p -> p[0]).toArray(),
                both.stream().mapToDouble(p -> p[1]).toArray()};
    }
}
