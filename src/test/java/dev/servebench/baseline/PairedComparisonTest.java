package dev.servebench.baseline;

import static dev.servebench.metric.MetricId.FAILED;
import static dev.servebench.metric.MetricId.MEDIAN_ITL_MS;
import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.spec.LoadPointKey;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The paired comparison on simulated rounds in which the machine's speed moves from round to round by far
 * more than the change to be found (factor 0.6–1.4, as the 2-core build VM did), while the two sides of a
 * round share that factor and differ only by their own noise (CV 3 %).
 */
class PairedComparisonTest {

    private static final LoadPointKey POINT = LoadPointKey.concurrency(16);
    private static final int TRIALS = 300;

    @Test
    void drifAlikeOnBothSidesIsNoRegressionPairedButFoolsTheUnpairedGate() {
        SplittableRandom random = new SplittableRandom(7);
        int pairedFalse = 0;
        int unpairedFalse = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            double[][] rounds = drifting(random, 8, 0.0);
            GateOutcome paired = PairedComparison.compare(OUTPUT_THROUGHPUT, POINT, rounds[0], rounds[1],
                    Tolerance.defaults(), trial);
            pairedFalse += paired.verdict() == GateVerdict.REGRESSION ? 1 : 0;
            // the history gate compares A's rounds as a baseline with B's as a run measured at another time:
            // here B's rounds are made slower as a whole, as a slower hour would
            double[] laterB = scaled(rounds[1], 0.8);
            unpairedFalse += GateComparison.compare(OUTPUT_THROUGHPUT, POINT, rounds[0], laterB, Tolerance.defaults(),
                    trial).verdict() == GateVerdict.REGRESSION ? 1 : 0;
        }
        assertThat(pairedFalse).as("paired A/A false regressions of %d", TRIALS).isLessThanOrEqualTo(TRIALS / 20);
        assertThat(pairedFalse).isLessThan(unpairedFalse);
    }

    @Test
    void fifteenPercentSlowerBIsARegressionDespiteTheDrift() {
        SplittableRandom random = new SplittableRandom(8);
        int found = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            double[][] rounds = drifting(random, 6, -0.15);
            // six rounds and Holm over 28 comparisons: judged at alpha / 28, as the first rank of a compare gate
            found += PairedComparison.compare(OUTPUT_THROUGHPUT, POINT, rounds[0], rounds[1],
                    Tolerance.defaults().withAlpha(0.05 / 28), trial).verdict() == GateVerdict.REGRESSION ? 1 : 0;
        }
        assertThat(found).as("15 %% slower B found, of %d", TRIALS).isGreaterThanOrEqualTo(TRIALS * 95 / 100);
    }

    @Test
    void theChangeIsTheMedianRatioAndTheMessageSaysPairedAndHowManyRounds() {
        double[] a = {100, 200, 150, 120};
        double[] b = {90, 170, 120, 108};   // ratios 0.9, 0.85, 0.8, 0.9: median 0.875
        GateOutcome outcome = PairedComparison.compare(OUTPUT_THROUGHPUT, POINT, a, b, Tolerance.defaults(), 1);

        assertThat(outcome.relativeChange()).isCloseTo(-0.125, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(outcome.baselineMedian()).isEqualTo(135);
        assertThat(outcome.message()).contains("paired t-test on log(B/A), 4 rounds p = ")
                .contains("(n=4)").endsWith("REGRESSION");
    }

    @Test
    void fewerThanThreePairedRoundsAreNotJudged() {
        GateOutcome outcome = PairedComparison.compare(MEDIAN_ITL_MS, POINT, new double[] {10, 11},
                new double[] {12, 13}, Tolerance.defaults(), 1);

        assertThat(outcome.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA);
        assertThat(outcome.pValue()).isEmpty();
        assertThat(outcome.message()).contains("2 paired rounds < 3: no significance test");
    }

    @Test
    void zerosOnOneSideAreJudgedByTheSignTest() {
        double[] none = new double[8];
        double[] three = {3, 3, 3, 3, 3, 3, 3, 3};
        GateOutcome failures = PairedComparison.compare(FAILED, POINT, none, three, Tolerance.defaults(), 1);
        GateOutcome clean = PairedComparison.compare(FAILED, POINT, none, none.clone(), Tolerance.defaults(), 1);

        assertThat(failures.verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(failures.pValue().getAsDouble()).isEqualTo(2.0 / 256);
        assertThat(failures.test()).startsWith(PairedTests.SIGN);
        assertThat(clean.verdict()).isEqualTo(GateVerdict.NO_CHANGE);
        assertThat(clean.pValue().getAsDouble()).isEqualTo(1.0);
    }

    @Test
    void sidesOfDifferentLengthAreRejected() {
        assertThatThrownBy(() -> PairedComparison.compare(OUTPUT_THROUGHPUT, POINT, new double[] {1, 2, 3},
                new double[] {1, 2}, Tolerance.defaults(), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A has 3 rounds, B 2");
    }

    @Test
    void wilcoxonsSmallestPValueWithSixRoundsCannotPassHolm() {
        double[] allWorse = {-0.1, -0.12, -0.15, -0.14, -0.16, -0.13};

        assertThat(PairedTests.wilcoxon(allWorse)).isEqualTo(2.0 / 64);
        assertThat(PairedTests.wilcoxon(allWorse)).isGreaterThan(0.05 / 28);
        assertThat(PairedTests.pairedT(allWorse)).isLessThan(0.05 / 28);
    }

    /** {A, B} per round: a shared machine factor per round, independent 3 % noise per side, B shifted. */
    private static double[][] drifting(SplittableRandom random, int rounds, double shift) {
        double[] a = new double[rounds];
        double[] b = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            double machine = 0.6 + 0.8 * random.nextDouble();
            a[r] = 600 * machine * noise(random);
            b[r] = 600 * (1 + shift) * machine * noise(random);
        }
        return new double[][] {a, b};
    }

    private static double noise(SplittableRandom random) {
        double sigma = Math.sqrt(Math.log(1 + 0.03 * 0.03));
        return Math.exp(sigma * gaussian(random) - sigma * sigma / 2);
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    private static double[] scaled(double[] values, double factor) {
        double[] out = values.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] *= factor;
        }
        return out;
    }
}
