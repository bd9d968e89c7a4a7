package dev.servebench.baseline;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * The compare gate's statistics for one metric at one load point: A (baseline) and B (candidate) measured
 * in the same rounds, so each round gives one ratio B/A in which whatever slowed the machine that minute
 * slowed both sides alike. The change is the median ratio − 1; it is a regression when it is worse than the
 * metric's tolerance in its bad direction AND Yuen's paired test on the log ratios (their 20 % trimmed mean, so
 * that a round disturbed on one side only does not hide a change) gives p &lt; alpha AND the
 * percentile bootstrap interval of the median ratio (rounds resampled as pairs) lies on the bad side of 1 —
 * the gate's three conditions, on pairs (docs/gate.md, "Paired comparison"). The statistics ({@link #judge})
 * know nothing of metrics: the kernel A/B comparison ({@link KernelPairedGate}) judges its figures with them too.
 */
public final class PairedComparison {

    /** With two rounds a median of resampled ratios has three possible values: no interval to speak of. */
    public static final int MIN_ROUNDS = 3;

    private PairedComparison() {
    }

    /**
     * @param a     one value per round of side A (finite, ≥ 0), aligned with {@code b}
     * @param b     one value per round of side B
     * @param seed  seeds the bootstrap
     */
    public static GateOutcome compare(MetricId metric, LoadPointKey point, double[] a, double[] b,
            Tolerance tolerance, long seed) {
        if (metric.direction() == Direction.INFORMATIONAL) {
            return GateComparison.reported(metric, point, a, b, tolerance, GatedMetrics.whyNotGated(metric));
        }
        return judge(metric.id() + " @ " + point, a, b, metric.direction(), tolerance.fractionFor(metric),
                tolerance.alpha(), seed).outcome(metric, point);
    }

    /**
     * The paired statistics of any quantity measured on both sides in the same rounds: what the serving and the
     * kernel comparisons share.
     *
     * @param what      names the quantity in error messages, e.g. {@code "moe_gflops @ tokens=64"}
     * @param a         one value per round of side A (finite, ≥ 0), aligned with {@code b}
     * @param b         one value per round of side B
     * @param direction which way is better; not {@link Direction#INFORMATIONAL}
     * @param tolerance the tolerated relative change (fraction)
     * @param alpha     significance level of the paired test
     * @param seed      seeds the bootstrap
     */
    public static PairedJudgement judge(String what, double[] a, double[] b, Direction direction, double tolerance,
            double alpha, long seed) {
        if (direction == Direction.INFORMATIONAL) {
            throw new IllegalArgumentException(what + ": an informational quantity is reported, not judged");
        }
        double[] base = Samples.checkedCopy("A", a);
        double[] cand = Samples.checkedCopy("B", b);
        if (base.length != cand.length) {
            throw new IllegalArgumentException(what + ": A has " + base.length + " rounds, B " + cand.length
                    + "; paired values must come in pairs");
        }
        int rounds = base.length;
        double[] logRatios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            logRatios[i] = logRatio(base[i], cand[i]);
        }
        double change = rounds == 0 ? Double.NaN : Math.expm1(median(logRatios.clone()));
        String test = rounds + " paired rounds";
        if (rounds < MIN_ROUNDS) {
            return new PairedJudgement(rounds, Samples.median(base), Samples.median(cand), change, Optional.empty(),
                    OptionalDouble.empty(), test + " < " + MIN_ROUNDS + ": no significance test", test, tolerance,
                    alpha, GateVerdict.INSUFFICIENT_DATA);
        }
        boolean finite = Arrays.stream(logRatios).allMatch(Double::isFinite);
        double p = finite ? PairedTests.yuen(logRatios) : PairedTests.sign(logRatios);
        test = (finite ? PairedTests.yuenName(rounds) : PairedTests.SIGN) + ", " + rounds + " rounds";
        ConfidenceInterval interval = medianRatioInterval(logRatios, seed);
        GateVerdict verdict = GateComparison.judge(direction, change, interval, p, tolerance, alpha);
        return new PairedJudgement(rounds, Samples.median(base), Samples.median(cand), change, Optional.of(interval),
                OptionalDouble.of(p), test + " + " + BOOTSTRAP, test, tolerance, alpha, verdict);
    }

    static final String BOOTSTRAP = "95 % percentile bootstrap of the median ratio over rounds ("
            + MedianRatioBootstrap.DEFAULT_RESAMPLES + " resamples)";

    /** log(B/A); equal values (0 and 0 too) are no change, a zero on one side an infinite one. */
    static double logRatio(double a, double b) {
        if (a == b) {
            return 0;
        }
        if (a <= 0 || b <= 0) {
            return b > a ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return Math.log(b / a);
    }

    /** Percentile bootstrap of exp(median log ratio) − 1, resampling whole rounds (pairs stay pairs). */
    static ConfidenceInterval medianRatioInterval(double[] logRatios, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int resamples = MedianRatioBootstrap.DEFAULT_RESAMPLES;
        double[] scratch = new double[logRatios.length];
        double[] changes = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = logRatios[random.nextInt(logRatios.length)];
            }
            changes[r] = Math.expm1(median(scratch));
        }
        Arrays.sort(changes);
        double tail = (1 - MedianRatioBootstrap.DEFAULT_CONFIDENCE) / 2;
        return new ConfidenceInterval(quantile(changes, tail), quantile(changes, 1 - tail),
                MedianRatioBootstrap.DEFAULT_CONFIDENCE);
    }

    /** Median (sorts {@code values}); the two middle values −∞ and +∞ average to no change, not NaN. */
    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        if (n % 2 == 1) {
            return values[n / 2];
        }
        double low = values[n / 2 - 1];
        double high = values[n / 2];
        return Double.isInfinite(low) && Double.isInfinite(high) && low != high ? 0 : (low + high) / 2;
    }

    /** Linear-interpolation quantile of sorted values; next to an infinity it takes the nearer rank instead. */
    private static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        if (Double.isInfinite(sorted[below]) || Double.isInfinite(sorted[above])) {
            return sorted[(int) Math.round(position)];
        }
        return Samples.quantileOfSorted(sorted, q);
    }
}
