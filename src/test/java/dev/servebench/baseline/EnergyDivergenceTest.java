package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EnergyDivergenceTest {

    /** Q(tau) straight from the definition in Matteson & James (2014), alpha = 1, O(n^2) per cut. */
    private static double definitionQ(double[] v, int start, int tau, int end) {
        int m = tau - start;
        int n = end - tau;
        double cross = 0;
        double left = 0;
        double right = 0;
        for (int i = start; i < tau; i++) {
            for (int j = tau; j < end; j++) {
                cross += Math.abs(v[i] - v[j]);
            }
            for (int k = i + 1; k < tau; k++) {
                left += Math.abs(v[i] - v[k]);
            }
        }
        for (int j = tau; j < end; j++) {
            for (int k = j + 1; k < end; k++) {
                right += Math.abs(v[j] - v[k]);
            }
        }
        double energy = 2 * cross / (m * n) - left / (m * (m - 1) / 2.0) - right / (n * (n - 1) / 2.0);
        return (double) m * n / (m + n) * energy;
    }

    @Test
    void incrementalBestCutMatchesTheDefinitionOnASubSegment() {
        SplittableRandom random = new SplittableRandom(3);
        double[] v = new double[50];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i < 27 ? 10 : 13) + random.nextGaussian();
        }
        int[] identity = new int[v.length];
        for (int i = 0; i < identity.length; i++) {
            identity[i] = i;
        }
        int start = 5;
        int end = 45;
        int minSegment = 4;
        int bestTau = -1;
        double bestQ = Double.NEGATIVE_INFINITY;
        for (int tau = start + minSegment; tau <= end - minSegment; tau++) {
            double q = definitionQ(v, start, tau, end);
            if (q > bestQ) {
                bestQ = q;
                bestTau = tau;
            }
        }

        EnergyDivergence.BestCut cut = EnergyDivergence.bestCut(v, identity, start, end, minSegment);

        assertThat(cut.tau()).isEqualTo(bestTau);
        assertThat(cut.q()).isCloseTo(bestQ, within(1e-9 * bestQ));
        assertThat(EnergyDivergence.bestCut(v, identity, 0, 7, 4).tau()).isEqualTo(-1);
    }
}
