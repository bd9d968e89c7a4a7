package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Selection against sorting: the same values, bit for bit, at every rank, on every path. */
class RankSelectTest {

    private static final RankSelect.Limits[] PATHS = {
            RankSelect.Limits.DEFAULT,        // sort a copy
            new RankSelect.Limits(0, 0),      // radix all the way down to 64 bits
            new RankSelect.Limits(0, 1),      // radix, then gather single candidates
            new RankSelect.Limits(0, 50),     // gather early
            new RankSelect.Limits(0, 1 << 20) // gather at once
    };

    private static void assertSelectsLikeSorting(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = values.length;
        // Every rank of short lists (more than one batch of ranks); ends, middle and a seeded few of long ones.
        long[] ranks = n <= 40 ? LongStream.range(0, n).toArray()
                : LongStream.concat(LongStream.of(0, n - 1, n / 2, n / 2 - 1), new Random(n).longs(8, 0, n)).toArray();
        for (RankSelect.Limits limits : PATHS) {
            double[] selected = RankSelect.select(DoubleSeries.of(values), ranks, limits);
            for (int i = 0; i < ranks.length; i++) {
                assertThat(Double.doubleToRawLongBits(selected[i])).as("rank %d of %d with %s", ranks[i], n, limits)
                        .isEqualTo(Double.doubleToRawLongBits(sorted[(int) ranks[i]]));
            }
        }
    }

    @Test
    void matchesSortingOnRandomValuesWithTies() {
        Random r = new Random(42);
        for (int trial = 0; trial < 40; trial++) {
            int n = 1 + r.nextInt(trial < 30 ? 60 : 3000);
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = switch (r.nextInt(4)) {
                    case 0 -> r.nextInt(5) / 1000.0;
                    case 1 -> -r.nextDouble();
                    case 2 -> r.nextGaussian() * 1e-3;
                    default -> r.nextDouble() * 1e6;
                };
            }
            assertSelectsLikeSorting(values);
        }
    }

    @Test
    void handlesAllEqualValuesZerosOfBothSignsAndInfinities() {
        assertSelectsLikeSorting(new double[] {0.25, 0.25, 0.25, 0.25, 0.25});
        assertSelectsLikeSorting(new double[] {0.0, -0.0, 0.0, -0.0, 1e-300, -1e-300, Double.MIN_VALUE, -Double.MIN_VALUE});
        assertSelectsLikeSorting(new double[] {Double.POSITIVE_INFINITY, 1, Double.NEGATIVE_INFINITY, -Double.MAX_VALUE,
                Double.MAX_VALUE});
        assertSelectsLikeSorting(new double[] {7});
    }

    @Test
    void putsNanLastAsNumpysSortDoes() {
        double[] values = {3, Double.NaN, -1, Double.NaN, 0.5};
        for (RankSelect.Limits limits : PATHS) {
            double[] selected = RankSelect.select(DoubleSeries.of(values), new long[] {0, 2, 3, 4}, limits);
            assertThat(selected[0]).isEqualTo(-1.0);
            assertThat(selected[1]).isEqualTo(3.0);
            assertThat(selected[2]).isNaN();
            assertThat(selected[3]).isNaN();
        }
    }

    @Test
    void keysPreserveOrder() {
        double[] ordered = {Double.NEGATIVE_INFINITY, -2.5, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE, 1, 2.5,
                Double.POSITIVE_INFINITY, Double.NaN};
        for (int i = 0; i < ordered.length; i++) {
            assertThat(Double.doubleToRawLongBits(RankSelect.value(RankSelect.key(ordered[i]))))
                    .isEqualTo(Double.doubleToLongBits(ordered[i]));
            if (i > 0) {
                assertThat(Long.compareUnsigned(RankSelect.key(ordered[i - 1]), RankSelect.key(ordered[i]))).isNegative();
            }
        }
    }

    @Test
    void sampleStatisticsMatchNumpyStatsOnEveryPath() {
        Random r = new Random(9);
        for (int n : new int[] {0, 1, 2, 3, 10, 127, 128, 129, 1000, 4099}) {
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = r.nextInt(3) == 0 ? r.nextInt(7) * 0.001 : r.nextDouble() * r.nextDouble();
            }
            for (RankSelect.Limits limits : PATHS) {
                Sample sample = new Sample(values.clone(), limits);
                assertThat(sample.mean()).as("n %d", n).isEqualTo(NumpyStats.mean(values));
                assertThat(sample.std()).isEqualTo(NumpyStats.std(values));
                assertThat(sample.median()).isEqualTo(NumpyStats.median(values));
                assertThat(sample.max()).isEqualTo(NumpyStats.max(values));
                for (double p : new double[] {90, 95, 99}) {
                    assertThat(sample.percentile(p)).as("p%s of %d", p, n).isEqualTo(NumpyStats.percentile(values, p));
                }
            }
        }
    }

    @Test
    void rejectsRanksOutsideTheList() {
        assertThatThrownBy(() -> RankSelect.select(DoubleSeries.of(new double[3]), new long[] {3}, RankSelect.Limits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 3 outside a list of 3 values");
    }
}
