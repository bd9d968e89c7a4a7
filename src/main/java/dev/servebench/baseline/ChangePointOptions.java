package dev.servebench.baseline;

/**
 * Settings of {@link ChangePoints#detect}.
 *
 * @param minSegment      fewest points on either side of a change point (>= 2: each side needs a spread)
 * @param pValueThreshold a split is kept only when its permutation p-value is below this, in (0, 1)
 * @param permutations    permutations per significance test (>= 9); the smallest p-value reachable is
 *                        1 / (permutations + 1)
 * @param seed            seeds the permutations, so a series always gives the same change points
 */
public record ChangePointOptions(int minSegment, double pValueThreshold, int permutations, long seed) {

    public ChangePointOptions {
        if (minSegment < 2) {
            throw new IllegalArgumentException("minSegment (" + minSegment + ") must be >= 2");
        }
        if (!(pValueThreshold > 0 && pValueThreshold < 1)) {
            throw new IllegalArgumentException("pValueThreshold (" + pValueThreshold + ") must be in (0, 1)");
        }
        if (permutations < 9) {
            throw new IllegalArgumentException("permutations (" + permutations + ") must be >= 9");
        }
        if (1.0 / (permutations + 1) >= pValueThreshold) {
            throw new IllegalArgumentException(permutations + " permutations cannot reach a p-value below "
                    + pValueThreshold);
        }
    }

    /**
     * Nightly-trend defaults: segments of at least 5 runs, p &lt; 0.01 with 499 permutations. Stricter than the
     * paper's 0.05 because a nightly series is re-analysed every night and each false alarm costs a person.
     */
    public static ChangePointOptions defaults() {
        return new ChangePointOptions(5, 0.01, 499, 0);
    }

    public ChangePointOptions withSeed(long newSeed) {
        return new ChangePointOptions(minSegment, pValueThreshold, permutations, newSeed);
    }

    public ChangePointOptions withMinSegment(int newMinSegment) {
        return new ChangePointOptions(newMinSegment, pValueThreshold, permutations, seed);
    }
}
