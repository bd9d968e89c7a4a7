package dev.servebench.baseline;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap (Efron &amp; Tibshirani 1993, ch. 13) of the relative change of medians: each resample
 * draws both sides with replacement, independently, and records median(current*) / median(baseline*) - 1;
 * the interval is the (1 - c)/2 and (1 + c)/2 quantiles of those changes. Seeded, so the same inputs give the
 * same interval.
 */
final class MedianRatioBootstrap {

    static final int DEFAULT_RESAMPLES = 2000;
    static final double DEFAULT_CONFIDENCE = 0.95;

    private MedianRatioBootstrap() {
    }

    static ConfidenceInterval interval(double[] baseline, double[] current, int resamples, double confidence,
            long seed) {
        if (baseline.length < 1 || current.length < 1 || resamples < 2) {
            throw new IllegalArgumentException("bootstrap needs samples on both sides and at least 2 resamples");
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] baselineScratch = new double[baseline.length];
        double[] currentScratch = new double[current.length];
        double[] changes = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            double baselineMedian = resampledMedian(baseline, baselineScratch, random);
            double currentMedian = resampledMedian(current, currentScratch, random);
            changes[r] = Samples.relativeChange(baselineMedian, currentMedian);
        }
        Arrays.sort(changes);
        double tail = (1 - confidence) / 2;
        return new ConfidenceInterval(Samples.quantileOfSorted(changes, tail),
                Samples.quantileOfSorted(changes, 1 - tail), confidence);
    }

    private static double resampledMedian(double[] values, double[] scratch, SplittableRandom random) {
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = values[random.nextInt(values.length)];
        }
        Arrays.sort(scratch);
        return Samples.medianOfSorted(scratch, scratch.length);
    }
}
