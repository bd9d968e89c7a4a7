package dev.servebench.baseline;

/**
 * The e-divisive means split statistic of Matteson &amp; James (2014) with alpha = 1: for a segment [start, end)
 * cut at tau into X = [start, tau) and Y = [tau, end), with m = |X| and n = |Y|,
 * <pre>Q(tau) = m n / (m + n) * ( 2/(m n) sum|x - y| - sum_{i&lt;k}|x_i - x_k| / C(m,2) - sum_{j&lt;k}|y_j - y_k| / C(n,2) )</pre>
 * (the empirical energy distance between X and Y, scaled). The right end of Y is the segment's end, as in the
 * hierarchical implementations used for performance series, rather than the paper's additional search over it.
 * Every cut of a segment is scored in O(n^2): moving the cut one point right moves that point's distances from
 * the right-within sum to the cross sum and from the cross sum to the left-within sum.
 */
final class EnergyDivergence {

    /** Best cut of a segment and its statistic; tau = -1 when the segment is too short to cut. */
    record BestCut(int tau, double q) {
    }

    private EnergyDivergence() {
    }

    /**
     * Best cut of {@code order[start, end)}, where {@code order} maps positions to series indices (a permutation
     * under test, or the identity), keeping at least {@code minSegment} points on each side.
     */
    static BestCut bestCut(double[] series, int[] order, int start, int end, int minSegment) {
        if (end - start < 2 * minSegment) {
            return new BestCut(-1, Double.NEGATIVE_INFINITY);
        }
        int firstTau = start + minSegment;
        double left = 0; // sum of |x_i - x_k| within [start, tau)
        double right = 0; // within [tau, end)
        double cross = 0; // between the two
        for (int i = start; i < end; i++) {
            for (int k = i + 1; k < end; k++) {
                double d = Math.abs(series[order[i]] - series[order[k]]);
                if (k < firstTau) {
                    left += d;
                } else if (i >= firstTau) {
                    right += d;
                } else {
                    cross += d;
                }
            }
        }
        int bestTau = firstTau;
        double bestQ = q(left, right, cross, firstTau - start, end - firstTau);
        for (int tau = firstTau + 1; tau <= end - minSegment; tau++) {
            int moved = tau - 1; // was the first point of Y, now the last of X
            double toLeft = 0;
            double toRight = 0;
            for (int i = start; i < moved; i++) {
                toLeft += Math.abs(series[order[moved]] - series[order[i]]);
            }
            for (int j = moved + 1; j < end; j++) {
                toRight += Math.abs(series[order[moved]] - series[order[j]]);
            }
            left += toLeft;
            right -= toRight;
            cross += toRight - toLeft;
            double q = q(left, right, cross, tau - start, end - tau);
            if (q > bestQ) {
                bestQ = q;
                bestTau = tau;
            }
        }
        return new BestCut(bestTau, bestQ);
    }

    private static double q(double left, double right, double cross, int m, int n) {
        double energy = 2 * cross / ((double) m * n) - left / pairs(m) - right / pairs(n);
        return (double) m * n / (m + n) * energy;
    }

    private static double pairs(int size) {
        return size * (size - 1) / 2.0;
    }
}
