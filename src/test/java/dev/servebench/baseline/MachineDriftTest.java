package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MachineDriftTest {

    private static double[] probe(double centreMs, double noise, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] samples = new double[n];
        for (int i = 0; i < n; i++) {
            samples[i] = centreMs * (1 + noise * random.nextGaussian());
        }
        return samples;
    }

    @Test
    void aMachineFifteenPercentFasterIsDrift() {
        MachineDrift drift = MachineDrift.check(probe(40, 0.04, 48, 1), probe(34, 0.04, 16, 2),
                MachineDrift.DEFAULT_TOLERANCE, 0.05);

        assertThat(drift.status()).isEqualTo(MachineDrift.Status.DRIFTED);
        assertThat(drift.relativeChange()).isBetween(-0.18, -0.12);
        assertThat(drift.message()).contains("(n=48)").contains("(n=16)").contains(": faster")
                .contains("Yuen t-test").contains("tolerance ±5 %").contains("MACHINE DRIFT");
    }

    @Test
    void theSameMachineIsSteadyInNineteenOfTwentySeeds() {
        int steady = 0;
        for (long seed = 0; seed < 20; seed++) {
            MachineDrift drift = MachineDrift.check(probe(40, 0.05, 48, seed), probe(40, 0.05, 16, seed + 100),
                    MachineDrift.DEFAULT_TOLERANCE, 0.05);
            steady += drift.status() == MachineDrift.Status.STEADY ? 1 : 0;
        }
        assertThat(steady).isGreaterThanOrEqualTo(19);
    }

    @Test
    void aSignificantChangeWithinToleranceIsSteady() {
        MachineDrift drift = MachineDrift.check(probe(40, 0.005, 48, 3), probe(41.2, 0.005, 16, 4), 0.05, 0.05);

        assertThat(drift.pValue()).isLessThan(1e-6);
        assertThat(drift.status()).isEqualTo(MachineDrift.Status.STEADY);
        assertThat(drift.message()).contains(": slower").endsWith("→ steady");
    }

    @Test
    void aLargeButInsignificantChangeIsSteady() {
        MachineDrift drift = MachineDrift.check(new double[] {30, 50}, new double[] {36, 60}, 0.05, 0.05);

        assertThat(drift.relativeChange()).isGreaterThan(0.05);
        assertThat(drift.status()).isEqualTo(MachineDrift.Status.STEADY);
    }

    @Test
    void runsWithoutProbeSamplesAreNotChecked() {
        MachineDrift drift = MachineDrift.check(new double[0], probe(40, 0.05, 16, 5), 0.05, 0.05);

        assertThat(drift.status()).isEqualTo(MachineDrift.Status.NOT_CHECKED);
        assertThat(drift.drifted()).isFalse();
        assertThat(drift.message()).contains("the baseline has no probe samples").contains("not checked");
    }

    @Test
    void badToleranceAndSamplesAreClearErrors() {
        assertThatThrownBy(() -> MachineDrift.check(new double[] {1, 2}, new double[] {1, 2}, -0.1, 0.05))
                .hasMessageContaining("tolerance (-0.1)");
        assertThatThrownBy(() -> MachineDrift.check(new double[] {1, Double.NaN}, new double[] {1, 2}, 0.05, 0.05))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
