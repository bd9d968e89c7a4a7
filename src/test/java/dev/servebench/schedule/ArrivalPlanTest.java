package dev.servebench.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ArrivalPlanTest {

    private static final int N = 20_000;
    private static final double RATE = 8.0;
    private static final double MEAN_GAP_NANOS = 1e9 / RATE;

    @Test
    void allAtOnceIsAllZeros() {
        ArrivalPlan plan = ArrivalPlan.plan(new ArrivalProcess.AllAtOnce(), 100, 1);
        assertThat(plan.size()).isEqualTo(100);
        assertThat(plan.toArray()).containsOnly(0L);
        assertThat(plan.spanNanos()).isZero();
    }

    @Test
    void emptyAndSingleRequestPlans() {
        assertThat(ArrivalPlan.plan(new ArrivalProcess.Poisson(1), 0, 1).size()).isZero();
        assertThat(ArrivalPlan.plan(new ArrivalProcess.Poisson(1), 0, 1).spanNanos()).isZero();
        ArrivalPlan one = ArrivalPlan.plan(new ArrivalProcess.Gamma(1, 0.5), 1, 1);
        assertThat(one.toArray()).containsExactly(0L);
    }

    @Test
    void rejectsNegativeCount() {
        assertThatThrownBy(() -> ArrivalPlan.plan(new ArrivalProcess.AllAtOnce(), -1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("n (-1) must be >= 0");
    }

    @Test
    void rejectsSpansBeyondLongRange() {
        // 1e-12 req/s: 1e21 ns per gap.
        assertThatThrownBy(() -> ArrivalPlan.plan(new ArrivalProcess.Gamma(1e-12, Double.POSITIVE_INFINITY), 3, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("request rate is too low");
    }

    @ParameterizedTest
    @ValueSource(doubles = {1.0, 0.25, 4.0})
    void deterministicForASeedAndDifferentAcrossSeeds(double burstiness) {
        ArrivalProcess process = ArrivalProcess.of(RATE, burstiness);
        ArrivalPlan a = ArrivalPlan.plan(process, 500, 42);
        ArrivalPlan b = ArrivalPlan.plan(process, 500, 42);
        ArrivalPlan c = ArrivalPlan.plan(process, 500, 43);
        assertThat(a.toArray()).isEqualTo(b.toArray());
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.toArray()).isNotEqualTo(c.toArray());
        assertThat(a).isNotEqualTo(c);
    }

    @ParameterizedTest
    @ValueSource(doubles = {1.0, 0.25, 4.0, Double.POSITIVE_INFINITY})
    void startsAtZeroAndNeverDecreases(double burstiness) {
        ArrivalPlan plan = ArrivalPlan.plan(ArrivalProcess.of(RATE, burstiness), N, 7);
        assertThat(plan.offsetNanos(0)).isZero();
        for (int i = 1; i < plan.size(); i++) {
            assertThat(plan.offsetNanos(i)).isGreaterThanOrEqualTo(plan.offsetNanos(i - 1));
        }
        assertThat(plan.spanNanos()).isEqualTo(plan.offsetNanos(N - 1));
    }

    /** Mean within 3% and coefficient of variation within 5% of 1/sqrt(burstiness) over 20 000 requests. */
    @ParameterizedTest
    @ValueSource(doubles = {1.0, 0.25, 4.0})
    void gapsHaveTheGammaMeanAndCoefficientOfVariation(double burstiness) {
        for (long seed : new long[] {1, 2, 3}) {
            double[] gaps = gaps(ArrivalPlan.plan(ArrivalProcess.of(RATE, burstiness), N, seed));
            double mean = mean(gaps);
            double cv = Math.sqrt(variance(gaps, mean)) / mean;
            assertThat(mean).as("mean gap, seed %d", seed).isCloseTo(MEAN_GAP_NANOS, within(0.03 * MEAN_GAP_NANOS));
            double expectedCv = 1 / Math.sqrt(burstiness);
            assertThat(cv).as("coefficient of variation, seed %d", seed).isCloseTo(expectedCv, within(0.05 * expectedCv));
        }
    }

    @Test
    void poissonAndGammaWithBurstinessOneAgreeInDistribution() {
        double[] poisson = gaps(ArrivalPlan.plan(new ArrivalProcess.Poisson(RATE), N, 5));
        double[] gamma = gaps(ArrivalPlan.plan(new ArrivalProcess.Gamma(RATE, 1.0), N, 5));
        // Exponential: P(gap > mean) = e^-1.
        assertThat(fractionAbove(poisson, MEAN_GAP_NANOS)).isCloseTo(Math.exp(-1), within(0.015));
        assertThat(fractionAbove(gamma, MEAN_GAP_NANOS)).isCloseTo(Math.exp(-1), within(0.015));
    }

    @Test
    void infiniteBurstinessIsConstantSpacing() {
        ArrivalPlan plan = ArrivalPlan.plan(new ArrivalProcess.Gamma(3.0, Double.POSITIVE_INFINITY), N, 9);
        for (int i = 0; i < N; i++) {
            assertThat(plan.offsetNanos(i)).isEqualTo(Math.round(i * 1e9 / 3.0));
        }
        long[] gaps = new long[N - 1];
        for (int i = 1; i < N; i++) {
            gaps[i - 1] = plan.offsetNanos(i) - plan.offsetNanos(i - 1);
        }
        assertThat(gaps).containsOnly(333_333_333L, 333_333_334L);
        // Seed-independent.
        assertThat(ArrivalPlan.plan(new ArrivalProcess.Gamma(3.0, Double.POSITIVE_INFINITY), N, 10).toArray())
                .isEqualTo(plan.toArray());
    }

    @Test
    void noRescalingSoTheSpanVariesAroundItsExpectation() {
        ArrivalPlan plan = ArrivalPlan.plan(new ArrivalProcess.Poisson(RATE), N, 11);
        double expected = (N - 1) * MEAN_GAP_NANOS;
        assertThat((double) plan.spanNanos()).isCloseTo(expected, within(0.03 * expected));
        assertThat(plan.spanNanos()).isNotEqualTo(Math.round(expected));
    }

    @Test
    void offsetsAreImmutable() {
        ArrivalPlan plan = ArrivalPlan.plan(new ArrivalProcess.Poisson(RATE), 10, 1);
        long[] copy = plan.toArray();
        copy[3] = -1;
        assertThat(plan.offsetNanos(3)).isNotEqualTo(-1);
    }

    private static double[] gaps(ArrivalPlan plan) {
        double[] gaps = new double[plan.size() - 1];
        for (int i = 1; i < plan.size(); i++) {
            gaps[i - 1] = plan.offsetNanos(i) - plan.offsetNanos(i - 1);
        }
        return gaps;
    }

    private static double mean(double[] xs) {
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return sum / xs.length;
    }

    private static double variance(double[] xs, double mean) {
        double sum = 0;
        for (double x : xs) {
            sum += (x - mean) * (x - mean);
        }
        return sum / (xs.length - 1);
    }

    private static double fractionAbove(double[] xs, double threshold) {
        long count = 0;
        for (double x : xs) {
            if (x > threshold) {
                count++;
            }
        }
        return (double) count / xs.length;
    }
}
