package dev.servebench.metric;

import java.util.Arrays;
import java.util.function.LongToDoubleFunction;

/**
 * The numpy statistics that SGLang {@code bench_serving} and vLLM {@code bench serve} apply to their metric
 * lists, reproduced bit for bit (float64, numpy 2.x).
 *
 * <p>Both tools call {@code np.mean(xs or 0)} and friends: an empty list is replaced by the scalar 0, so
 * every statistic of an empty array is 0.0 here. Results differ from a textbook implementation in the
 * last bits, which is why the summation order below must not be "simplified": numpy sums pairwise, with
 * an 8-way unrolled block at the leaves. No method modifies its argument.
 */
public final class NumpyStats {

    /** numpy's {@code PW_BLOCKSIZE}: at or below this size a block is summed with 8 accumulators. */
    private static final int BLOCK = 128;
    private static final int UNROLL = 8;

    private NumpyStats() {}

    /** {@code np.sum}: {@code 0.0 + pairwise(values)}; 0.0 for an empty array. */
    public static double sum(double[] values) {
        return sum(values, 0, values.length);
    }

    /** {@code np.mean}: the pairwise sum divided by n (one IEEE division). */
    public static double mean(double[] values) {
        int n = values.length;
        return n == 0 ? 0.0 : sum(values) / n;
    }

    /**
     * {@code np.std} with ddof 0: the mean as above, the squared deviations {@code (x - mean) * (x - mean)}
     * summed with the same pairwise sum, divided by n, square-rooted.
     */
    public static double std(double[] values) {
        int n = values.length;
        if (n == 0) {
            return 0.0;
        }
        double mean = mean(values);
        double[] squares = new double[n];
        for (int i = 0; i < n; i++) {
            double d = values[i] - mean;
            squares[i] = d * d;
        }
        return Math.sqrt(sum(squares) / n);
    }

    /** {@code np.median}: middle element, or the mean of the two middle elements {@code (lo + hi) / 2}. */
    public static double median(double[] values) {
        return medianOfSorted(sortedCopy(values));
    }

    /**
     * {@code np.percentile(values, p)} with the default "linear" method, including numpy's choice of
     * interpolating from the upper neighbour when the fraction is at least one half.
     *
     * @param p percentile in [0, 100]
     */
    public static double percentile(double[] values, double p) {
        checkPercentile(p);
        return percentileOfSorted(sortedCopy(values), p);
    }

    /** {@link #percentile} at each of {@code ps}, sorting once (a distribution's worth of percentiles). */
    public static double[] percentiles(double[] values, double[] ps) {
        double[] sorted = sortedCopy(values);
        double[] result = new double[ps.length];
        for (int i = 0; i < ps.length; i++) {
            result[i] = percentileOfSorted(sorted, ps[i]);
        }
        return result;
    }

    /** {@code np.max}; 0.0 for an empty array (the {@code or 0} scalar). */
    public static double max(double[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        double max = values[0];
        for (int i = 1; i < values.length; i++) {
            // numpy's maximum propagates NaN; Math.max does too, unlike a plain comparison.
            max = Math.max(max, values[i]);
        }
        return max;
    }

    static double medianOfSorted(double[] sorted) {
        return medianOfSorted(sorted.length, rank -> sorted[(int) rank]);
    }

    /** {@link #medianOfSorted(double[])} over n sorted values read by rank (0-based). */
    static double medianOfSorted(long n, LongToDoubleFunction sortedAt) {
        if (n == 0) {
            return 0.0;
        }
        if (n % 2 == 1) {
            return sortedAt.applyAsDouble(n / 2);
        }
        return (sortedAt.applyAsDouble(n / 2 - 1) + sortedAt.applyAsDouble(n / 2)) / 2;
    }

    static double percentileOfSorted(double[] sorted, double p) {
        return percentileOfSorted(sorted.length, rank -> sorted[(int) rank], p);
    }

    /** {@link #percentileOfSorted(double[], double)} over n sorted values read by rank (0-based). */
    static double percentileOfSorted(long n, LongToDoubleFunction sortedAt, double p) {
        checkPercentile(p);
        if (n == 0) {
            return 0.0;
        }
        double q = p / 100;
        double v = (n - 1) * q;
        long lo = (long) Math.floor(v);
        long hi = Math.min(lo + 1, n - 1);
        double g = v - lo;
        double low = sortedAt.applyAsDouble(lo);
        double high = sortedAt.applyAsDouble(hi);
        double d = high - low;
        // numpy's _lerp: interpolating from the nearer end keeps the result monotone in g.
        return g >= 0.5 ? high - d * (1 - g) : low + d * g;
    }

    static double[] sortedCopy(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }

    private static double sum(double[] a, int from, int n) {
        // numpy reduces into an initial 0.0; this only matters for an all-negative-zero input.
        return 0.0 + pairwise(a, from, n);
    }

    private static double pairwise(double[] a, int from, int n) {
        if (n < UNROLL) {
            double r = -0.0;
            for (int i = 0; i < n; i++) {
                r += a[from + i];
            }
            return r;
        }
        if (n <= BLOCK) {
            double r0 = a[from], r1 = a[from + 1], r2 = a[from + 2], r3 = a[from + 3];
            double r4 = a[from + 4], r5 = a[from + 5], r6 = a[from + 6], r7 = a[from + 7];
            int i;
            for (i = UNROLL; i < n - n % UNROLL; i += UNROLL) {
                int k = from + i;
                r0 += a[k];
                r1 += a[k + 1];
                r2 += a[k + 2];
                r3 += a[k + 3];
                r4 += a[k + 4];
                r5 += a[k + 5];
                r6 += a[k + 6];
                r7 += a[k + 7];
            }
            double r = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
            for (; i < n; i++) {
                r += a[from + i];
            }
            return r;
        }
        int n2 = n / 2;
        n2 -= n2 % UNROLL;
        return pairwise(a, from, n2) + pairwise(a, from + n2, n - n2);
    }

    private static void checkPercentile(double p) {
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("p (" + p + ") must be within [0, 100]");
        }
    }
}
