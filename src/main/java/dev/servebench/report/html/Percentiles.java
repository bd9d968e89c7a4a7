package dev.servebench.report.html;

import dev.servebench.metric.NumpyStats;

/**
 * A distribution as values at fixed percentiles (an empirical CDF): a few hundred bytes however many samples
 * a load point had.
 *
 * @param ranks   percentiles in [0, 100], ascending
 * @param values  the value at each rank, non-decreasing
 * @param samples how many values the distribution was computed from
 */
public record Percentiles(double[] ranks, double[] values, int samples) {

    /** Every whole percentile, then the tail a latency SLO is written against. */
    static final double[] RANKS = standardRanks();

    public Percentiles {
        ranks = ranks.clone();
        values = values.clone();
        if (ranks.length != values.length || samples < 0 || (samples == 0) != (ranks.length == 0)) {
            throw new IllegalArgumentException("ranks (" + ranks.length + ") and values (" + values.length
                    + ") must pair up, and be empty exactly when there are no samples (" + samples + ")");
        }
        for (int i = 0; i < ranks.length; i++) {
            if (!(ranks[i] >= 0 && ranks[i] <= 100) || i > 0 && !(ranks[i] > ranks[i - 1] && values[i] >= values[i - 1])) {
                throw new IllegalArgumentException("ranks must ascend within [0, 100] and values must not decrease"
                        + " (at index " + i + ")");
            }
        }
    }

    /** numpy-style linear percentiles of {@code values} scaled by {@code scale} (e.g. 1000 for s to ms). */
    public static Percentiles of(double[] values, double scale) {
        if (values.length == 0) {
            return new Percentiles(new double[0], new double[0], 0);
        }
        double[] scaled = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            scaled[i] = values[i] * scale;
        }
        double[] at = NumpyStats.percentiles(scaled, RANKS);
        for (int i = 1; i < at.length; i++) {
            at[i] = Math.max(at[i], at[i - 1]); // interpolation rounding must not make a CDF step back
        }
        return new Percentiles(RANKS, at, values.length);
    }

    @Override
    public double[] ranks() {
        return ranks.clone();
    }

    @Override
    public double[] values() {
        return values.clone();
    }

    private static double[] standardRanks() {
        double[] ranks = new double[103];
        for (int i = 0; i <= 99; i++) {
            ranks[i] = i;
        }
        ranks[100] = 99.5;
        ranks[101] = 99.9;
        ranks[102] = 100;
        return ranks;
    }
}
