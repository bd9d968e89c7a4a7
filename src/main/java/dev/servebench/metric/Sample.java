package dev.servebench.metric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One metric list (seconds) and its numpy statistics, each computed on first use. The order statistics
 * (the median and every percentile a {@link MetricId} uses) are selected together: the ranks they read are collected by running numpy's
 * formulas once with a recording lookup, then selected in one go, so the formulas exist only in
 * {@link NumpyStats}.
 */
final class Sample {

    private static final double[] PERCENTILES = MetricId.percentileRanks();

    private final DoubleSeries values;
    private final RankSelect.Limits limits;
    private Double sum;
    private Map<Long, Double> sortedAt;

    Sample(DoubleSeries values, RankSelect.Limits limits) {
        this.values = values;
        this.limits = limits;
    }

    /** Keeps {@code values} (never modified); callers pass a fresh array. */
    Sample(double[] values, RankSelect.Limits limits) {
        this(DoubleSeries.of(values), limits);
    }

    long size() {
        return values.size();
    }

    double sum() {
        if (sum == null) {
            sum = SeriesStats.sum(values);
        }
        return sum;
    }

    double mean() {
        return values.size() == 0 ? 0.0 : sum() / values.size();
    }

    double std() {
        return SeriesStats.std(values, mean());
    }

    double max() {
        return SeriesStats.max(values);
    }

    double median() {
        return NumpyStats.medianOfSorted(values.size(), this::sortedAt);
    }

    double percentile(double p) {
        return NumpyStats.percentileOfSorted(values.size(), this::sortedAt, p);
    }

    private double sortedAt(long rank) {
        if (sortedAt == null) {
            selectOrderStatistics();
        }
        Double value = sortedAt.get(rank);
        if (value == null) {
            throw new IllegalStateException("rank " + rank + " of " + values.size() + " was not selected");
        }
        return value;
    }

    private void selectOrderStatistics() {
        long n = values.size();
        List<Long> ranks = new ArrayList<>();
        NumpyStats.medianOfSorted(n, rank -> record(ranks, rank));
        for (double p : PERCENTILES) {
            NumpyStats.percentileOfSorted(n, rank -> record(ranks, rank), p);
        }
        long[] wanted = ranks.stream().mapToLong(Long::longValue).distinct().toArray();
        double[] selected = RankSelect.select(values, wanted, limits);
        sortedAt = new HashMap<>();
        for (int i = 0; i < wanted.length; i++) {
            sortedAt.put(wanted[i], selected[i]);
        }
    }

    private static double record(List<Long> ranks, long rank) {
        ranks.add(rank);
        return 0.0;
    }
}
