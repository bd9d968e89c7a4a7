package dev.servebench.baseline;

import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.DataDispersion;
import org.apache.commons.statistics.inference.TTest;

/** Welch's unequal-variances t-test (Welch 1947), two-sided, through Commons Statistics. */
final class WelchTest {

    static final String NAME = "Welch t-test";

    private static final TTest TEST = TTest.withDefaults()
            .with(AlternativeHypothesis.TWO_SIDED)
            .with(DataDispersion.HETEROSCEDASTIC);

    private WelchTest() {
    }

    /** Two-sided p-value for equal means; both sides need at least 2 samples. */
    static double pValue(double[] baseline, double[] current) {
        if (Samples.variance(baseline) == 0 && Samples.variance(current) == 0) {
            // the statistic is 0/0 or x/0 here; identical constant sides are the same, different constants differ
            return Samples.mean(baseline) == Samples.mean(current) ? 1.0 : 0.0;
        }
        return TEST.test(baseline, current).getPValue();
    }
}
