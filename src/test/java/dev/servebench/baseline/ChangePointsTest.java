package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChangePointsTest {

    /** Normal noise around a level per stretch: levels[k] for lengths[k] points. */
    private static double[] series(long seed, double sd, double[] levels, int[] lengths) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 0;
        for (int length : lengths) {
            n += length;
        }
        double[] values = new double[n];
        int i = 0;
        for (int k = 0; k < levels.length; k++) {
            for (int j = 0; j < lengths[k]; j++) {
                values[i++] = levels[k] + sd * random.nextGaussian();
            }
        }
        return values;
    }

    /** 30 points at 100 ± 3, then 30 at 85 ± 3: one change point at index 30 (±1) in at least 95 of 100 seeds. */
    @Test
    void aFifteenPercentStepIsFoundWithinOneIndex() {
        int seeds = 100;
        int foundAlone = 0;
        for (long seed = 1; seed <= seeds; seed++) {
            double[] s = series(seed, 3, new double[] {100, 85}, new int[] {30, 30});
            List<ChangePoint> found = ChangePoints.detect(s, ChangePointOptions.defaults().withSeed(seed));

            assertThat(found).as("seed %d", seed).isNotEmpty();
            if (found.size() == 1 && Math.abs(found.getFirst().index() - 30) <= 1) {
                foundAlone++;
                ChangePoint step = found.getFirst();
                assertThat(step.pValue()).isLessThan(0.01);
                assertThat(step.meanBefore()).isCloseTo(100, within(3.0));
                assertThat(step.meanAfter()).isCloseTo(85, within(3.0));
                assertThat(step.relativeShift()).isCloseTo(-0.15, within(0.04));
            }
        }
        assertThat((double) foundAlone / seeds).as("share of seeds with exactly one change point at 30 ± 1")
                .isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void pureNoiseAlmostNeverHasAChangePoint() {
        int seeds = 300;
        int withChangePoints = 0;
        for (long seed = 1; seed <= seeds; seed++) {
            double[] s = series(seed, 3, new double[] {100}, new int[] {60});
            if (!ChangePoints.detect(s, ChangePointOptions.defaults().withSeed(seed)).isEmpty()) {
                withChangePoints++;
            }
        }
        assertThat((double) withChangePoints / seeds).as("share of pure-noise series with a change point")
                .isLessThanOrEqualTo(0.05);
    }

    /** 100 → 85 → 100, 30 points each: both steps (30 ± 1, 60 ± 1) in at least 95 of 100 seeds. */
    @Test
    void twoStepsAreBothFound() {
        int seeds = 100;
        int bothFound = 0;
        for (long seed = 1; seed <= seeds; seed++) {
            double[] s = series(seed, 3, new double[] {100, 85, 100}, new int[] {30, 30, 30});
            List<ChangePoint> found = ChangePoints.detect(s, ChangePointOptions.defaults().withSeed(seed));
            if (found.size() == 2 && Math.abs(found.get(0).index() - 30) <= 1
                    && Math.abs(found.get(1).index() - 60) <= 1) {
                bothFound++;
                assertThat(found.get(0).relativeShift()).isNegative();
                assertThat(found.get(1).relativeShift()).isPositive();
                // means between neighbouring change points, not over the rest of the series
                assertThat(found.get(1).meanBefore()).isCloseTo(85, within(3.0));
            }
        }
        assertThat((double) bothFound / seeds).as("share of seeds with both steps found within one index")
                .isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void aSeriesShorterThanTwoMinimumSegmentsHasNone() {
        double[] stepButShort = {100, 100, 100, 100, 50, 50, 50, 50, 50};
        assertThat(ChangePoints.detect(stepButShort, ChangePointOptions.defaults())).isEmpty();
        assertThat(ChangePoints.detect(new double[0], ChangePointOptions.defaults())).isEmpty();
        // the same step with room for two minimum segments on each side is found
        double[] longEnough = new double[20];
        Arrays.fill(longEnough, 0, 10, 100);
        Arrays.fill(longEnough, 10, 20, 50);
        assertThat(ChangePoints.detect(longEnough, ChangePointOptions.defaults()))
                .extracting(ChangePoint::index).containsExactly(10);
    }

    @Test
    void aConstantSeriesHasNoneAndTheResultIsReproducible() {
        assertThat(ChangePoints.detect(new double[40], ChangePointOptions.defaults())).isEmpty();
        double[] s = series(5, 3, new double[] {100, 90}, new int[] {25, 25});
        assertThat(ChangePoints.detect(s, ChangePointOptions.defaults()))
                .isEqualTo(ChangePoints.detect(s, ChangePointOptions.defaults()));
    }

    @Test
    void badOptionsAreRejected() {
        assertThatThrownBy(() -> new ChangePointOptions(1, 0.01, 499, 0)).hasMessageContaining("minSegment");
        assertThatThrownBy(() -> new ChangePointOptions(5, 0.01, 50, 0)).hasMessageContaining("cannot reach");
        assertThatThrownBy(() -> ChangePoints.detect(new double[] {1, Double.NaN}, ChangePointOptions.defaults()))
                .hasMessageContaining("finite");
    }
}
