package dev.servebench.baseline;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Change points of a performance series (one value per run, in run order) by e-divisive means: Matteson &amp;
 * James (2014), "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA
 * 109(505), with alpha = 1. Hierarchical bisection: the best cut over all current segments
 * ({@link EnergyDivergence}) is kept when a permutation test finds it significant (observations shuffled
 * within each current segment, p = (1 + #permuted statistics &gt;= observed) / (1 + permutations)); then the
 * segments are searched again, until a cut is not significant or no segment can be cut.
 */
public final class ChangePoints {

    private ChangePoints() {
    }

    /** Change points in index order; none when the series is shorter than two minimum segments. */
    public static List<ChangePoint> detect(double[] series, ChangePointOptions options) {
        double[] values = Samples.checkedCopy("series", series);
        SplittableRandom random = new SplittableRandom(options.seed());
        TreeMap<Integer, Double> pValueByIndex = new TreeMap<>();
        int[] identity = identity(values.length);
        while (true) {
            int[] bounds = bounds(pValueByIndex, values.length);
            EnergyDivergence.BestCut best = bestSplit(values, identity, bounds, options.minSegment());
            if (best.tau() < 0) {
                break;
            }
            double p = permutationPValue(values, bounds, best.q(), options, random);
            if (p >= options.pValueThreshold()) {
                break;
            }
            pValueByIndex.put(best.tau(), p);
        }
        return describe(values, pValueByIndex);
    }

    private static EnergyDivergence.BestCut bestSplit(double[] values, int[] order, int[] bounds, int minSegment) {
        EnergyDivergence.BestCut best = new EnergyDivergence.BestCut(-1, Double.NEGATIVE_INFINITY);
        for (int s = 0; s + 1 < bounds.length; s++) {
            EnergyDivergence.BestCut cut = EnergyDivergence.bestCut(values, order, bounds[s], bounds[s + 1],
                    minSegment);
            if (cut.q() > best.q()) {
                best = cut;
            }
        }
        return best;
    }

    /**
     * Stops early once the p-value can no longer fall below the threshold: the split is rejected either way,
     * and noise (the common case) then costs a handful of permutations instead of all of them.
     */
    private static double permutationPValue(double[] values, int[] bounds, double observed,
            ChangePointOptions options, SplittableRandom random) {
        int[] order = identity(values.length);
        int atLeastAsLarge = 0;
        for (int r = 0; r < options.permutations(); r++) {
            for (int s = 0; s + 1 < bounds.length; s++) {
                shuffle(order, bounds[s], bounds[s + 1], random);
            }
            if (bestSplit(values, order, bounds, options.minSegment()).q() >= observed) {
                atLeastAsLarge++;
                double floor = (atLeastAsLarge + 1.0) / (options.permutations() + 1);
                if (floor >= options.pValueThreshold()) {
                    return floor;
                }
            }
        }
        return (atLeastAsLarge + 1.0) / (options.permutations() + 1);
    }

    private static List<ChangePoint> describe(double[] values, TreeMap<Integer, Double> pValueByIndex) {
        int[] bounds = bounds(pValueByIndex, values.length);
        List<ChangePoint> points = new ArrayList<>();
        for (int b = 1; b + 1 < bounds.length; b++) {
            double before = mean(values, bounds[b - 1], bounds[b]);
            double after = mean(values, bounds[b], bounds[b + 1]);
            points.add(new ChangePoint(bounds[b], pValueByIndex.get(bounds[b]), before, after,
                    Samples.relativeChange(before, after)));
        }
        return List.copyOf(points);
    }

    /** 0, every change point in order, n. */
    private static int[] bounds(TreeMap<Integer, Double> changePoints, int n) {
        int[] bounds = new int[changePoints.size() + 2];
        int i = 1;
        for (int index : changePoints.keySet()) {
            bounds[i++] = index;
        }
        bounds[i] = n;
        return bounds;
    }

    private static double mean(double[] values, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum / (to - from);
    }

    private static int[] identity(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }

    /** Fisher–Yates over order[from, to). */
    private static void shuffle(int[] order, int from, int to, SplittableRandom random) {
        for (int i = to - 1; i > from; i--) {
            int j = from + random.nextInt(i - from + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
    }
}
