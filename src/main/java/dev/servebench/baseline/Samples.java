package dev.servebench.baseline;

import dev.servebench.metric.NumpyStats;

/** Small numeric helpers over repeat samples (one value per repeat of a load point). */
final class Samples {

    private Samples() {
    }

    static double[] checkedCopy(String side, double[] values) {
        if (values == null) {
            throw new IllegalArgumentException(side + " samples must not be null");
        }
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(side + " samples must be finite, got " + v);
            }
        }
        return values.clone();
    }

    /** Median as numpy computes it (mean of the two middle values for even n); NaN when empty. */
    static double median(double[] values) {
        return values.length == 0 ? Double.NaN : NumpyStats.median(values);
    }

    /** Median of the first {@code n} values of an already sorted array. */
    static double medianOfSorted(double[] sorted, int n) {
        int mid = n / 2;
        return n % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** Unbiased sample variance (n - 1 denominator), as the t-test uses. */
    static double variance(double[] values) {
        double mean = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - mean) * (v - mean);
        }
        return sum / (values.length - 1);
    }

    /**
     * Relative change of {@code current} against {@code baseline}, signed as the raw difference. A zero baseline
     * has no relative scale: no change is 0, any other is an infinite change in its direction.
     */
    static double relativeChange(double baseline, double current) {
        if (baseline == 0) {
            return current == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, current);
        }
        return (current - baseline) / Math.abs(baseline);
    }

    /** Linear-interpolation quantile (numpy's default) of a sorted array, q in [0, 1]. */
    static double quantileOfSorted(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        double weight = position - below;
        if (weight == 0 || sorted[below] == sorted[above]) {
            return sorted[below]; // avoids inf - inf when a zero baseline made changes infinite
        }
        return sorted[below] + weight * (sorted[above] - sorted[below]);
    }
}
