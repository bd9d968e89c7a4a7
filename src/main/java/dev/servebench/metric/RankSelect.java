package dev.servebench.metric;

import java.util.Arrays;

/**
 * Exact order statistics of a {@link DoubleSeries} without sorting it: the values that would sit at given
 * ranks after {@code Arrays.sort} (numpy's order too: -0.0 before 0.0, NaN last). A short list is copied
 * and sorted. A long one is narrowed by radix selection on the order-preserving 64-bit key of each value,
 * 16 bits per pass, all ranks together; once the values still in the running fit in memory one more pass
 * gathers and sorts them. Memory: one 65,536-entry histogram per distinct rank bucket (512 KB each, at
 * most 16 ranks per batch of passes) plus the gathered candidates, never the list.
 */
final class RankSelect {

    /**
     * @param sortLimit   lists up to this long are sorted as a copy
     * @param gatherLimit candidates up to this many are gathered and sorted instead of another histogram pass
     */
    record Limits(long sortLimit, long gatherLimit) {
        /** 8 MB of doubles or keys at most. */
        static final Limits DEFAULT = new Limits(1 << 20, 1 << 20);

        Limits {
            if (sortLimit < 0 || gatherLimit < 0) {
                throw new IllegalArgumentException("sortLimit (" + sortLimit + ") and gatherLimit (" + gatherLimit
                        + ") must be >= 0");
            }
        }
    }

    private static final int DIGIT_BITS = 16;
    private static final int DIGITS = 1 << DIGIT_BITS;
    private static final int MAX_RANKS_PER_PASS = 16;

    private RankSelect() {}

    /** The values at {@code ranks} (0-based, each < size) of the sorted list. */
    static double[] select(DoubleSeries series, long[] ranks, Limits limits) {
        long n = series.size();
        for (long rank : ranks) {
            if (rank < 0 || rank >= n) {
                throw new IllegalArgumentException("rank " + rank + " outside a list of " + n + " values");
            }
        }
        if (n <= limits.sortLimit()) {
            double[] sorted = new double[(int) n];
            DoubleSeries.Pass pass = series.pass();
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] = pass.next();
            }
            Arrays.sort(sorted);
            double[] result = new double[ranks.length];
            for (int r = 0; r < ranks.length; r++) {
                result[r] = sorted[(int) ranks[r]];
            }
            return result;
        }
        // Each rank may need its own 512 KB histogram: bound them by selecting in batches.
        double[] result = new double[ranks.length];
        for (int from = 0; from < ranks.length; from += MAX_RANKS_PER_PASS) {
            int to = Math.min(ranks.length, from + MAX_RANKS_PER_PASS);
            double[] batch = radixSelect(series, Arrays.copyOfRange(ranks, from, to), limits.gatherLimit());
            System.arraycopy(batch, 0, result, from, batch.length);
        }
        return result;
    }

    /** Unsigned order of the keys is the sort order of the values (NaNs collapsed to the canonical one). */
    static long key(double value) {
        long bits = Double.doubleToLongBits(value);
        return bits ^ ((bits >> 63) | Long.MIN_VALUE);
    }

    static double value(long key) {
        return Double.longBitsToDouble(key < 0 ? key ^ Long.MIN_VALUE : ~key);
    }

    private static double[] radixSelect(DoubleSeries series, long[] ranks, long gatherLimit) {
        int m = ranks.length;
        long[] prefix = new long[m];
        long[] remaining = ranks.clone();
        long[] inBucket = new long[m];
        Arrays.fill(inBucket, series.size());
        int bits = 0;
        while (bits < 64) {
            long[] groups = distinct(prefix);
            long candidates = 0;
            for (long group : groups) {
                candidates += inBucket[indexOf(prefix, group)];
            }
            if (candidates <= gatherLimit) {
                return gather(series, ranks.length, prefix, remaining, bits, groups);
            }
            long[][] histograms = new long[groups.length][DIGITS];
            int shift = 64 - bits - DIGIT_BITS;
            DoubleSeries.Pass pass = series.pass();
            for (long i = series.size(); i > 0; i--) {
                long k = key(pass.next());
                int g = groupOf(k, bits, groups);
                if (g >= 0) {
                    histograms[g][(int) ((k >>> shift) & (DIGITS - 1))]++;
                }
            }
            for (int r = 0; r < m; r++) {
                long[] histogram = histograms[Arrays.binarySearch(groups, prefix[r])];
                int digit = 0;
                while (remaining[r] >= histogram[digit]) {
                    remaining[r] -= histogram[digit];
                    digit++;
                }
                inBucket[r] = histogram[digit];
                prefix[r] = prefix[r] << DIGIT_BITS | digit;
            }
            bits += DIGIT_BITS;
        }
        double[] result = new double[m];
        for (int r = 0; r < m; r++) {
            result[r] = value(prefix[r]);
        }
        return result;
    }

    /** One pass collecting every value of the ranks' buckets, each bucket sorted on its own. */
    private static double[] gather(DoubleSeries series, int m, long[] prefix, long[] remaining, int bits,
            long[] groups) {
        long[][] members = new long[groups.length][16];
        int[] sizes = new int[groups.length];
        DoubleSeries.Pass pass = series.pass();
        for (long i = series.size(); i > 0; i--) {
            long k = key(pass.next());
            int g = groupOf(k, bits, groups);
            if (g >= 0) {
                if (sizes[g] == members[g].length) {
                    members[g] = Arrays.copyOf(members[g], 2 * sizes[g]);
                }
                // Flipping the sign bit makes signed order the keys' unsigned order.
                members[g][sizes[g]++] = k ^ Long.MIN_VALUE;
            }
        }
        for (int g = 0; g < groups.length; g++) {
            Arrays.sort(members[g], 0, sizes[g]);
        }
        double[] result = new double[m];
        for (int r = 0; r < m; r++) {
            int g = Arrays.binarySearch(groups, prefix[r]);
            result[r] = value(members[g][(int) remaining[r]] ^ Long.MIN_VALUE);
        }
        return result;
    }

    /** The group whose {@code bits}-bit prefix {@code key} has, or -1; every key matches at 0 bits. */
    private static int groupOf(long key, int bits, long[] groups) {
        if (bits == 0) {
            return 0;
        }
        long top = key >>> (64 - bits);
        for (int g = 0; g < groups.length; g++) {
            if (groups[g] == top) {
                return g;
            }
        }
        return -1;
    }

    private static long[] distinct(long[] prefixes) {
        return Arrays.stream(prefixes).distinct().sorted().toArray();
    }

    private static int indexOf(long[] values, long value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        throw new IllegalStateException("prefix " + value + " not among the ranks'");
    }
}
