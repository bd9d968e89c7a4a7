package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NumpyStatsTest {

    // ---- sum ----

    @Test
    void sumBelowEightElementsIsSequentialLeftToRight() {
        double[] x = {1e16, 1, 1, 1, 1, 1, 1};
        // Each 1 is lost against 1e16 (the ulp is 2, ties go to even), exactly as a left-to-right loop does it.
        assertThat(NumpyStats.sum(x)).isEqualTo(1e16).isEqualTo(naive(x));
        assertThat(NumpyStats.sum(reversed(x))).isEqualTo(1e16 + 6);
    }

    @Test
    void sumOfEightUsesTheUnrolledAccumulatorTree() {
        double[] x = {1e16, 1, 1, 1, 1, 1, 1, 1};
        // ((1e16 + 1) + (1 + 1)) + ((1 + 1) + (1 + 1)) = (1e16 + 2) + 4
        assertThat(NumpyStats.sum(x)).isEqualTo(1.0000000000000006E16);
        assertThat(naive(x)).isEqualTo(1e16);
    }

    @Test
    void sumOfNineAddsTheRemainderAfterTheTree() {
        double[] x = {1e16, 1, 1, 1, 1, 1, 1, 1, 1};
        // tree gives 1e16 + 6, then + 1 = 1e16 + 7, a tie between 1e16 + 6 and 1e16 + 8 that rounds to even.
        assertThat(NumpyStats.sum(x)).isEqualTo(1.0000000000000008E16);
        assertThat(naive(x)).isEqualTo(1e16);
    }

    @Test
    void sumOf129SplitsInto64And65() {
        double[] x = new double[129];
        Arrays.fill(x, 1);
        x[0] = 1e16;
        // First half: accumulator 0 stays 1e16 (each +1 is lost), the other seven reach 8 each:
        // ((1e16 + 8) + 16) + (16 + 16) = 1e16 + 56. Second half: 8 accumulators of 8 -> 64, + 1 -> 65.
        // 1e16 + 56 + 65 = 1e16 + 121, between 1e16 + 120 and 1e16 + 122: ties to even gives + 120.
        assertThat(NumpyStats.sum(x)).isEqualTo(1e16 + 120).isEqualTo(reference(x));
        assertThat(naive(x)).isEqualTo(1e16);
    }

    @ParameterizedTest
    @ValueSource(ints = {7, 8, 9, 16, 17, 100, 128, 129, 136, 255, 300, 1000})
    void sumMatchesAnIndependentRecursiveReimplementation(int n) {
        double[] x = mixture(n);
        assertThat(NumpyStats.sum(x)).isEqualTo(reference(x));
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 9, 100, 129, 300})
    void sumDiffersFromNaiveSummationOnTheMixture(int n) {
        double[] x = mixture(n);
        // Guards the two tests above: the mixture really is order-sensitive at these sizes.
        assertThat(NumpyStats.sum(x)).isNotEqualTo(naive(x));
    }

    @Test
    void sumOfNegativeZerosIsPositiveZeroBecauseNumpyStartsFromZero() {
        assertThat(Double.doubleToRawLongBits(NumpyStats.sum(new double[] {-0.0, -0.0})))
                .isEqualTo(Double.doubleToRawLongBits(0.0));
    }

    // ---- mean, std ----

    @Test
    void meanDividesThePairwiseSum() {
        double[] x = {1e16, 1, 1, 1, 1, 1, 1, 1};
        assertThat(NumpyStats.mean(x)).isEqualTo(1.0000000000000006E16 / 8);
        assertThat(NumpyStats.mean(new double[] {0.25, 0.5, 1.5})).isEqualTo(0.75);
    }

    @Test
    void stdIsPopulationStandardDeviation() {
        // mean 2.5; squared deviations 2.25, 0.25, 0.25, 2.25 sum to 5; 5 / 4 = 1.25
        assertThat(NumpyStats.std(new double[] {1, 2, 3, 4})).isEqualTo(Math.sqrt(1.25));
        assertThat(NumpyStats.std(new double[] {0.5, 0.5, 0.5})).isEqualTo(0.0);
        assertThat(NumpyStats.std(new double[] {7})).isEqualTo(0.0);
    }

    @Test
    void stdSumsTheSquaredDeviationsPairwise() {
        double[] x = mixture(129);
        double mean = reference(x) / x.length;
        double[] squares = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).toArray();
        assertThat(NumpyStats.std(x)).isEqualTo(Math.sqrt(reference(squares) / x.length));
    }

    // ---- median, percentile, max ----

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(NumpyStats.median(new double[] {3, 1, 2})).isEqualTo(2.0);
        assertThat(NumpyStats.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(NumpyStats.median(new double[] {0.2, 0.1})).isEqualTo(0.15000000000000002);
        assertThat(NumpyStats.median(new double[] {5})).isEqualTo(5.0);
    }

    @Test
    void percentileOfOneValueIsThatValue() {
        for (double p : new double[] {0, 37.5, 50, 99, 100}) {
            assertThat(NumpyStats.percentile(new double[] {0.3}, p)).isEqualTo(0.3);
        }
    }

    @Test
    void percentileOfTwoValuesInterpolatesLinearly() {
        double[] x = {3, 1};
        assertThat(NumpyStats.percentile(x, 0)).isEqualTo(1.0);
        assertThat(NumpyStats.percentile(x, 25)).isEqualTo(1.5);
        assertThat(NumpyStats.percentile(x, 50)).isEqualTo(2.0);
        assertThat(NumpyStats.percentile(x, 75)).isEqualTo(2.5);
        assertThat(NumpyStats.percentile(x, 100)).isEqualTo(3.0);
    }

    @Test
    void percentileWithFractionExactlyOneHalfInterpolatesFromTheUpperNeighbour() {
        double[] x = {0.541, 0.208};
        // v = 0.5, g = 0.5: numpy takes hi - d * (1 - g); lo + d * g would be 0.37450000000000006.
        assertThat(NumpyStats.percentile(x, 50)).isEqualTo(0.3745);
        assertThat(0.208 + (0.541 - 0.208) * 0.5).isEqualTo(0.37450000000000006);
    }

    @Test
    void percentileUsesQEqualsPOver100() {
        double[] x = {0, 10, 20};
        // v = 2 * 0.95 = 1.9, g = 0.8999999999999999: 20 - 10 * (1 - g)
        assertThat(NumpyStats.percentile(x, 95)).isEqualTo(20 - 10 * (1 - 0.8999999999999999));
        assertThat(NumpyStats.percentile(x, 90)).isEqualTo(18.0);
        // n = 101, p = 99: v = 100 * 0.99 = 99.0 exactly, so the 100th smallest value itself
        double[] hundredOne = new double[101];
        Arrays.setAll(hundredOne, i -> 100 - i);
        assertThat(NumpyStats.percentile(hundredOne, 99)).isEqualTo(99.0);
    }

    @Test
    void maxPicksTheLargest() {
        assertThat(NumpyStats.max(new double[] {1, 5, 3})).isEqualTo(5.0);
        assertThat(NumpyStats.max(new double[] {-3, -1})).isEqualTo(-1.0);
    }

    @Test
    void everyStatisticOfAnEmptyListIsZero() {
        double[] empty = {};
        assertThat(NumpyStats.sum(empty)).isEqualTo(0.0);
        assertThat(NumpyStats.mean(empty)).isEqualTo(0.0);
        assertThat(NumpyStats.std(empty)).isEqualTo(0.0);
        assertThat(NumpyStats.median(empty)).isEqualTo(0.0);
        assertThat(NumpyStats.percentile(empty, 99)).isEqualTo(0.0);
        assertThat(NumpyStats.max(empty)).isEqualTo(0.0);
    }

    @Test
    void doesNotReorderTheCallersArray() {
        double[] x = {3, 1, 2, 0.5};
        NumpyStats.median(x);
        NumpyStats.percentile(x, 90);
        NumpyStats.std(x);
        assertThat(x).containsExactly(3, 1, 2, 0.5);
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 100.1, Double.NaN})
    void rejectsPercentilesOutsideZeroToHundred(double p) {
        assertThatThrownBy(() -> NumpyStats.percentile(new double[] {1}, p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("p (" + p + ")");
    }

    // ---- independent helpers ----

    /** Order-sensitive values: big, tiny and awkward decimals interleaved. */
    private static double[] mixture(int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = switch (i % 5) {
                case 0 -> 1e16;
                case 1 -> 0.1 * (i % 7 + 1);
                case 2 -> 1.0;
                case 3 -> -1e16 + 2;
                default -> 3.3;
            };
        }
        return x;
    }

    private static double naive(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s;
    }

    private static double[] reversed(double[] x) {
        double[] r = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            r[i] = x[x.length - 1 - i];
        }
        return r;
    }

    /**
     * numpy's pairwise_sum written from its C source independently of NumpyStats: recursion on copied
     * halves, accumulators in an array.
     */
    private static double reference(double[] x) {
        return 0.0 + pairwise(x);
    }

    private static double pairwise(double[] x) {
        int n = x.length;
        if (n < 8) {
            double r = -0.0;
            for (double v : x) {
                r += v;
            }
            return r;
        }
        if (n <= 128) {
            double[] acc = Arrays.copyOf(x, 8);
            int full = n - n % 8;
            for (int i = 8; i < full; i += 8) {
                for (int j = 0; j < 8; j++) {
                    acc[j] += x[i + j];
                }
            }
            double r = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
            for (int i = full; i < n; i++) {
                r += x[i];
            }
            return r;
        }
        int half = n / 2 - (n / 2) % 8;
        return pairwise(Arrays.copyOfRange(x, 0, half)) + pairwise(Arrays.copyOfRange(x, half, n));
    }
}
