package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class YuenTestTest {

    @Test
    void aHandComputedCase() {
        // n = 8, g = 1: trimmed means 4.5 and 5.5, winsorized squared errors 30 / (6·5) = 1 each,
        // t = −1/√2 on (1 + 1)² / (1/5 + 1/5) = 10 degrees of freedom
        double p = YuenTest.pValue(new double[] {1, 2, 3, 4, 5, 6, 7, 100}, new double[] {2, 3, 4, 5, 6, 7, 8, 9});
        assertThat(p).isCloseTo(0.4956, within(0.001));
    }

    @Test
    void withFewerThanEightRepeatsItIsWelchsTest() {
        double[] a = {100, 104, 98, 101, 99, 150, 97};
        double[] b = {90, 93, 88, 91, 89};
        assertThat(YuenTest.pValue(a, b)).isCloseTo(WelchTest.pValue(a, b), within(1e-12));
    }

    @Test
    void oneDisturbedRepeatDoesNotHideAFifteenPercentChange() {
        double[] baseline = {100, 101, 99, 102, 98, 100, 101, 99};
        double[] current = {85, 86, 84, 85, 87, 84, 86, 130}; // one repeat hit by a neighbour's burst
        assertThat(WelchTest.pValue(baseline, current)).isGreaterThan(0.05);
        assertThat(YuenTest.pValue(baseline, current)).isLessThan(1e-6);
    }

    @Test
    void symmetricAndConstantSides() {
        double[] a = {3, 1, 4, 1, 5, 9, 2, 6};
        double[] b = {2, 7, 1, 8, 2, 8, 1, 8};
        assertThat(YuenTest.pValue(a, b)).isEqualTo(YuenTest.pValue(b, a));
        double[] five = {5, 5, 5, 5, 5, 5, 5, 5};
        assertThat(YuenTest.pValue(five, five.clone())).isEqualTo(1.0);
        assertThat(YuenTest.pValue(five, new double[] {6, 6, 6, 6, 6, 6, 6, 6})).isEqualTo(0.0);
    }

    @Test
    void thePairedFormOnARecordedComparison() {
        // log(B/A) of output_throughput @ concurrency=16 in a recorded 15 %-slower comparison whose 10 rounds ran
        // while Maven compiled beside it (reports/benchmarks/compare-robust-2026-12-03.md): two rounds hit on
        // one side only. g = 2, h = 6: trimmed mean −0.12633, squared error 6.8928e-4, t = −4.812 on 5 degrees
        // of freedom (computed independently with numpy/scipy)
        double[] logRatios = {-0.122, -0.13, -1.479, -0.116, 0.685, -0.198, -0.107, 1.148, -0.085, -0.436};
        assertThat(YuenTest.pairedPValue(logRatios)).isCloseTo(0.004832572627522177, within(1e-12));
        assertThat(PairedTests.pairedT(logRatios)).as("the t-test's mean and SD take the disturbed rounds in")
                .isCloseTo(0.706338793937509, within(1e-9));
    }

    @Test
    void thePairedFormBelowEightRoundsIsThePairedTTest() {
        double[] logRatios = {-0.14, -0.12, -0.16, -0.11, -0.15, 0.02};
        assertThat(YuenTest.pairedPValue(logRatios)).isCloseTo(0.009709819122632985, within(1e-12))
                .isCloseTo(PairedTests.pairedT(logRatios), within(1e-12));
        assertThat(YuenTest.pairedPValue(new double[] {0, 0, 0, 0, 0, 0, 0, 0})).isEqualTo(1.0);
        assertThat(YuenTest.pairedPValue(new double[] {-0.125, -0.125, -0.125, -0.125, -0.125, -0.125, -0.125, -0.125}))
                .isEqualTo(0.0);
    }
}
