package dev.servebench.kernels.moe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MoeMathTest {

    @Test
    void expIsWithin2ToTheMinus50OfMathExpAcrossItsRange() {
        SplittableRandom random = new SplittableRandom(1);
        double worst = 0;
        for (int i = 0; i < 200_000; i++) {
            double y = i % 2 == 0 ? random.nextDouble(-708, 708) : random.nextDouble(-1, 1);
            double relative = Math.abs(MoeMath.exp(y) - Math.exp(y)) / Math.exp(y);
            worst = Math.max(worst, relative);
        }
        for (double y : new double[] {0, -0.0, 0.5 * Math.log(2), -0.5 * Math.log(2), 708, -708, 1e-300}) {
            worst = Math.max(worst, Math.abs(MoeMath.exp(y) - Math.exp(y)) / Math.exp(y));
        }
        // Math.exp is within 1 ulp (2^-52): the true error of MoeMath.exp is below 2^-49 as documented.
        assertThat(worst).isLessThan(0x1p-50);
        assertThat(MoeMath.exp(0)).isEqualTo(1.0);
    }

    @Test
    void expClampsItsRangeAndKeepsNaN() {
        assertThat(MoeMath.exp(1e6)).isEqualTo(MoeMath.exp(708));
        assertThat(MoeMath.exp(Double.NEGATIVE_INFINITY)).isEqualTo(MoeMath.exp(-708)).isPositive();
        assertThat(MoeMath.exp(Double.NaN)).isNaN();
        assertThat(MoeMath.sigmoid(Float.POSITIVE_INFINITY)).isEqualTo(1f);
        assertThat(MoeMath.sigmoid(Float.NEGATIVE_INFINITY)).isEqualTo(0f);
        assertThat(MoeMath.sigmoid(0f)).isEqualTo(0.5f);
        assertThat(MoeMath.silu(Float.NaN)).isNaN();
        assertThat(MoeMath.silu(1000f)).isEqualTo(1000f);
        assertThat(MoeMath.silu(-1000f)).isEqualTo(-0f);
    }

    @Test
    void siluIsWithinTheRelativeErrorTheBoundAssumes() {
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 200_000; i++) {
            float g = (float) (i % 2 == 0 ? random.nextDouble(-120, 120) : random.nextGaussian() * 3);
            double exact = g / (1 + Math.exp(-(double) g));
            double error = Math.abs(MoeMath.silu(g) - exact);
            assertThat(error).as("silu(%s)", g).isLessThanOrEqualTo(MoeErrorBound.SILU_RELATIVE * Math.abs(exact) + 0x1p-150);
        }
    }

    @Test
    void siluDerivativeStaysBelowTheLipschitzConstant() {
        double worst = 0;
        for (double g = -20; g <= 20; g += 1e-4) {
            double s = 1 / (1 + Math.exp(-g));
            worst = Math.max(worst, Math.abs(s * (1 + g * (1 - s))));
        }
        assertThat(worst).isBetween(1.09, MoeErrorBound.SILU_LIPSCHITZ);
    }
}
