package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Kernel intervals on hand-worked numbers. Samples e^{-0.1}, e^0, e^0.1 (times a scale) have log values -0.1, 0,
 * 0.1: sample variance s² = (0.01 + 0 + 0.01) / 2 = 0.01, so the log median's variance is (π/2)·0.01/3 =
 * 0.0052360 and its standard error 0.0723601. Student-t quantiles (0.975) from the tables: 4.302653 at 2 degrees
 * of freedom, 2.776445 at 4.
 */
class KernelIntervalsTest {

    private static double[] spread(double scale) {
        return new double[] {scale * Math.exp(-0.1), scale, scale * Math.exp(0.1)};
    }

    @Test
    void aFiguresIntervalIsItsMedianTimesAndOverEToTheTHalfWidthOfItsLogs() {
        // half-width 4.302653 × 0.0723601 = 0.311340; 100·e^∓0.311340 = 73.2464, 136.5254
        ConfidenceInterval interval = KernelIntervals.figure(100, spread(100));

        assertThat(interval.lower()).isCloseTo(73.2464, within(1e-4));
        assertThat(interval.upper()).isCloseTo(136.5254, within(1e-4));
        assertThat(interval.confidence()).isEqualTo(0.95);
    }

    @Test
    void aRatiosIntervalAddsBothSidesVariancesWithWelchsDegreesOfFreedom() {
        // variance 2 × 0.0052360 = 0.0104720; Welch: 0.0104720² / (2 × 0.0052360² / 2) = 4 degrees of freedom;
        // half-width 2.776445 × √0.0104720 = 0.284121; 1.5·e^∓0.284121 = 1.129013, 1.992891
        ConfidenceInterval interval = KernelIntervals.ratio(150, spread(150), 100, spread(100));

        assertThat(interval.lower()).isCloseTo(1.129013, within(1e-6));
        assertThat(interval.upper()).isCloseTo(1.992891, within(1e-6));
    }

    @Test
    void aSideWithoutSpreadLeavesTheOthersDegreesOfFreedomAndNoSpreadAtAllIsThePointItself() {
        // Only the reference varies: its variance 0.0052360, 2 degrees of freedom, the figure's interval above / 100.
        ConfidenceInterval oneSided = KernelIntervals.ratio(100, new double[] {100, 100, 100}, 100, spread(100));
        assertThat(oneSided.lower()).isCloseTo(0.732464, within(1e-6));
        assertThat(oneSided.upper()).isCloseTo(1.365254, within(1e-6));

        ConfidenceInterval none = KernelIntervals.ratio(0.8, new double[] {0.8, 0.8}, 1, new double[] {1, 1, 1});
        assertThat(none.lower()).isEqualTo(0.8);
        assertThat(none.upper()).isEqualTo(0.8);
    }

    @Test
    void theJudgedPointLiesInsideItsIntervalEvenWhenTheMedianIsFarFromTheMean() {
        // The nvfp4 dequant fork of one recorded smoke run: one slow iteration, the median 61.3.
        ConfidenceInterval interval = KernelIntervals.figure(61.3, new double[] {33.582, 61.3, 62.218});

        assertThat(interval.lower()).isLessThan(61.3);
        assertThat(interval.upper()).isGreaterThan(61.3);
    }

    @Test
    void samplesThatGiveNoIntervalSayWhy() {
        assertThat(KernelIntervals.unusable(new double[] {5})).hasValue("1 iteration: an interval needs at least 2");
        assertThat(KernelIntervals.unusable(new double[] {5, 0})).hasValue("an iteration's figure is 0.0: expected"
                + " finite figures above 0");
        assertThat(KernelIntervals.unusable(new double[] {5, Double.NaN})).isPresent();
        assertThat(KernelIntervals.unusable(new double[] {5, 6})).isEmpty();
        assertThatThrownBy(() -> KernelIntervals.figure(5, new double[] {5}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("figure samples: 1 iteration: an interval"
                        + " needs at least 2");
        assertThatThrownBy(() -> KernelIntervals.ratio(5, new double[] {5, 5}, 0, new double[] {1, 1}))
                .hasMessage("reference figure 0.0: expected a finite figure above 0");
    }
}
