package dev.servebench.baseline;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Yuen's trimmed-means t-test (Yuen 1974, "The two-sample trimmed t for unequal population variances",
 * Biometrika 61(1), 165–170), two-sided, 20 % trimming: Welch's test on the 20 % trimmed means with
 * winsorized variances. Why not Welch's test on the raw repeats: one disturbed repeat (a neighbour's burst
 * on a shared runner) inflates the variance enough to hide a real 15 % change; trimming drops it. A side
 * with fewer than {@value #MIN_TO_TRIM} repeats is not trimmed (with 5, trimming keeps 3, and the noise
 * model's detection of a 15 % change fell from 95.7 % to 94.7 %); with no trimming it is Welch's test.
 */
final class YuenTest {

    static final double TRIM = 0.2;
    static final int MIN_TO_TRIM = 8;
    static final String NAME = "Yuen t-test (20 % trimmed means)";

    private YuenTest() {
    }

    /** Two-sided p-value for equal trimmed means; both sides need at least 2 samples. */
    static double pValue(double[] baseline, double[] current) {
        Side a = new Side(baseline);
        Side b = new Side(current);
        if (a.squaredError == 0 && b.squaredError == 0) {
            // the statistic is 0/0 or x/0 here: identical constant centres are the same, different ones differ
            return a.trimmedMean == b.trimmedMean ? 1.0 : 0.0;
        }
        double t = (a.trimmedMean - b.trimmedMean) / Math.sqrt(a.squaredError + b.squaredError);
        double degrees = Math.pow(a.squaredError + b.squaredError, 2)
                / (a.squaredError * a.squaredError / (a.kept - 1) + b.squaredError * b.squaredError / (b.kept - 1));
        return 2 * TDistribution.of(degrees).survivalProbability(Math.abs(t));
    }

    /**
     * The one-sample form on paired differences (here per-round log ratios), two-sided, H0: trimmed mean 0
     * (Wilcox, <i>Introduction to Robust Estimation and Hypothesis Testing</i>, "comparing dependent groups": the
     * trimmed mean of the differences). With fewer than {@value #MIN_TO_TRIM} values it is the paired t-test.
     * Needs at least 2 values; constant differences give 1 when they are all 0, else 0.
     */
    static double pairedPValue(double[] differences) {
        Side d = new Side(differences);
        if (d.squaredError == 0) {
            return d.trimmedMean == 0 ? 1.0 : 0.0;
        }
        double t = d.trimmedMean / Math.sqrt(d.squaredError);
        return 2 * TDistribution.of(d.kept - 1).survivalProbability(Math.abs(t));
    }

    /** How many of {@code n} values the test keeps (trims none below {@value #MIN_TO_TRIM}). */
    static int kept(int n) {
        return n - 2 * trimmedPerEnd(n);
    }

    private static int trimmedPerEnd(int n) {
        return n < MIN_TO_TRIM ? 0 : (int) Math.floor(TRIM * n);
    }

    /** Trimmed mean and the squared standard error of one sample. */
    private static final class Side {
        final double trimmedMean;
        final double squaredError;
        final int kept;

        Side(double[] values) {
            if (values.length < 2) {
                throw new IllegalArgumentException("Yuen's test needs at least 2 values a side, got " + values.length);
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            int g = trimmedPerEnd(n);
            kept = n - 2 * g;
            double sum = 0;
            for (int i = g; i < n - g; i++) {
                sum += sorted[i];
            }
            trimmedMean = sum / kept;
            double[] winsorized = sorted.clone();
            for (int i = 0; i < g; i++) {
                winsorized[i] = sorted[g];
                winsorized[n - 1 - i] = sorted[n - 1 - g];
            }
            // (n − 1)·s²_w / (h·(h − 1)), s²_w the winsorized sample variance
            squaredError = (n - 1) * Samples.variance(winsorized) / ((double) kept * (kept - 1));
        }
    }
}
