package dev.servebench.metric;

/**
 * {@link NumpyStats}' sum, mean, std and max over a {@link DoubleSeries}, bit for bit: numpy's pairwise
 * recursion visits its leaves left to right and reads each leaf in order, so it can consume a single
 * forward pass instead of an array. The leaf's eight accumulators see the same elements in the same order
 * as in {@code NumpyStats.pairwise}; a test holds the two together.
 */
final class SeriesStats {

    private static final int BLOCK = 128;
    private static final int UNROLL = 8;

    private SeriesStats() {}

    /** {@code np.sum}. */
    static double sum(DoubleSeries series) {
        return 0.0 + pairwise(series.pass(), series.size());
    }

    /** {@code np.mean}: the pairwise sum divided by n; 0.0 for an empty list. */
    static double mean(DoubleSeries series) {
        long n = series.size();
        return n == 0 ? 0.0 : sum(series) / n;
    }

    /** {@code np.std} (ddof 0) given the list's mean: squared deviations in a second pass. */
    static double std(DoubleSeries series, double mean) {
        long n = series.size();
        if (n == 0) {
            return 0.0;
        }
        DoubleSeries.Pass values = series.pass();
        DoubleSeries.Pass squares = () -> {
            double d = values.next() - mean;
            return d * d;
        };
        return Math.sqrt((0.0 + pairwise(squares, n)) / n);
    }

    /** {@code np.max}, NaN-propagating; 0.0 for an empty list. */
    static double max(DoubleSeries series) {
        long n = series.size();
        if (n == 0) {
            return 0.0;
        }
        DoubleSeries.Pass values = series.pass();
        double max = values.next();
        for (long i = 1; i < n; i++) {
            max = Math.max(max, values.next());
        }
        return max;
    }

    private static double pairwise(DoubleSeries.Pass a, long n) {
        if (n < UNROLL) {
            double r = -0.0;
            for (long i = 0; i < n; i++) {
                r += a.next();
            }
            return r;
        }
        if (n <= BLOCK) {
            double r0 = a.next(), r1 = a.next(), r2 = a.next(), r3 = a.next();
            double r4 = a.next(), r5 = a.next(), r6 = a.next(), r7 = a.next();
            long i;
            for (i = UNROLL; i < n - n % UNROLL; i += UNROLL) {
                r0 += a.next();
                r1 += a.next();
                r2 += a.next();
                r3 += a.next();
                r4 += a.next();
                r5 += a.next();
                r6 += a.next();
                r7 += a.next();
            }
            double r = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
            for (; i < n; i++) {
                r += a.next();
            }
            return r;
        }
        long n2 = n / 2;
        n2 -= n2 % UNROLL;
        // Left half first: Java evaluates the left operand before the right, so the pass stays in order.
        double left = pairwise(a, n2);
        return left + pairwise(a, n - n2);
    }
}
