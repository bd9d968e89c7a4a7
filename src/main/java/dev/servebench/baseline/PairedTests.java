package dev.servebench.baseline;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.PValueMethod;
import org.apache.commons.statistics.inference.TTest;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

/**
 * Two-sided tests of "no change" on per-round log ratios log(B/A). The compare gate uses Yuen's paired
 * trimmed-mean test ({@link #yuen}); the paired t-test and the exact Wilcoxon signed-rank test (Commons
 * Statistics) are kept because docs/gate.md compares the three on the same recordings: one round disturbed on
 * one side hides a real change from the t-test, and with 6–12 rounds Wilcoxon's smallest possible p-value,
 * 2 / 2^n, cannot pass Holm's first threshold.
 * Log ratios that are infinite (a side measured 0 where the other did not, e.g. {@code failed}) leave only
 * their signs: the exact sign test.
 */
public final class PairedTests {

    public static final String PAIRED_T = "paired t-test on log(B/A)";
    public static final String YUEN = "Yuen paired test (20 % trimmed mean of log(B/A))";
    public static final String WILCOXON = "Wilcoxon signed-rank test (exact) on log(B/A)";
    public static final String SIGN = "paired sign test on B − A";

    private static final TTest T_TEST = TTest.withDefaults().with(AlternativeHypothesis.TWO_SIDED);
    private static final WilcoxonSignedRankTest WILCOXON_TEST = WilcoxonSignedRankTest.withDefaults()
            .with(AlternativeHypothesis.TWO_SIDED).with(PValueMethod.EXACT);

    private PairedTests() {
    }

    /**
     * Yuen's test on the trimmed mean of the log ratios: with 8 or more rounds the 20 % most extreme at each
     * end are trimmed (a round in which a neighbour's burst hit one side only), below that it is the paired
     * t-test. Finite log ratios, at least 2.
     */
    public static double yuen(double[] logRatios) {
        return YuenTest.pairedPValue(logRatios);
    }

    /** The name of the test {@link #yuen} runs on {@code rounds} rounds, for messages. */
    public static String yuenName(int rounds) {
        return YuenTest.kept(rounds) == rounds ? PAIRED_T : YUEN;
    }

    /** The paired t-test's p-value on finite log ratios (at least 2). Constant ratios: 1 when all 0, else 0. */
    public static double pairedT(double[] logRatios) {
        if (Samples.variance(logRatios) == 0) {
            return Samples.mean(logRatios) == 0 ? 1.0 : 0.0;
        }
        return T_TEST.test(logRatios).getPValue();
    }

    /** The exact Wilcoxon signed-rank p-value; zero ratios (ties with no change) are dropped first. */
    public static double wilcoxon(double[] logRatios) {
        double[] nonZero = java.util.Arrays.stream(logRatios).filter(d -> d != 0).toArray();
        if (nonZero.length == 0) {
            return 1.0;
        }
        return WILCOXON_TEST.test(nonZero).getPValue();
    }

    /** Exact two-sided sign test over the rounds that changed; ±∞ count by their sign. */
    public static double sign(double[] logRatios) {
        int up = 0;
        int changed = 0;
        for (double d : logRatios) {
            if (d != 0) {
                changed++;
                up += d > 0 ? 1 : 0;
            }
        }
        if (changed == 0) {
            return 1.0;
        }
        BinomialDistribution binomial = BinomialDistribution.of(changed, 0.5);
        int rarer = Math.min(up, changed - up);
        return Math.min(1.0, 2 * binomial.cumulativeProbability(rarer));
    }
}
