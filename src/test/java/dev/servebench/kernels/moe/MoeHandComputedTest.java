package dev.servebench.kernels.moe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.nvfp4.Bf16;
import java.lang.foreign.Arena;
import java.util.function.DoubleBinaryOperator;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * A case small enough to compute by hand: each up row i picks x[i], each gate row i picks x[16 + i]
 * (one E2M1 1.0 per row, so nibble order, block scales and the [Up; Gate] halves all show), the down
 * projections are a scaled identity with a -2 copy (expert 0) and a reversal (expert 1).
 */
class MoeHandComputedTest {

    private static final MoeShape SHAPE = new MoeShape(32, 16, 2, 2);
    private static final int H = 32;
    private static final int I = 16;
    private static final int ONE = 0x2;
    private static final int MINUS_TWO = 0xC;
    private static final int MINUS_ZERO = 0x8;
    /** E4M3 1.0, 2.0, 0.5. */
    private static final int S1 = 0x38;
    private static final int S2 = 0x40;
    private static final int S_HALF = 0x30;
    private static final int[] UP_SCALE = {S1, S_HALF};
    private static final int[] GATE_SCALE = {S2, S1};
    private static final float[] G13 = {0.5f, 1f};
    private static final float[] G2 = {0.25f, 1f};
    private static final int[] IDS = {1, 0, 0, 1};
    private static final float[] WEIGHTS = {0.75f, 2f, 1.5f, -0.5f};

    @Test
    void referenceAndEveryVariantMatchTheHandComputation() {
        short[] x = new short[2 * H];
        for (int i = 0; i < I; i++) {
            x[i] = Bf16.fromFloat((i - 7.5f) / 4);
            x[I + i] = Bf16.fromFloat((i - 8) / 2f);
            x[H + i] = Bf16.fromFloat((8 - i) / 8f);
            x[H + I + i] = Bf16.fromFloat((7 - i) / 3f);
        }
        DoubleBinaryOperator swiglu = (up, gate) -> gate / (1 + Math.exp(-gate)) * up;
        double[] expected = expected(x, swiglu);
        double[] tolerance = tolerance(x, swiglu);
        double[] swapped = expected(x, (up, gate) -> swiglu.applyAsDouble(gate, up));
        double[] noSilu = expected(x, (up, gate) -> gate * up);
        assertThat(distinguishes(swapped, expected, tolerance)).as("test tells [Up; Gate] from [Gate; Up]").isTrue();
        assertThat(distinguishes(noSilu, expected, tolerance)).as("test sees the silu").isTrue();

        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = weights(arena);
            MoeInputs inputs = MoeInputs.of(SHAPE, x, new Routing(2, 2, IDS, WEIGHTS), arena);
            check("reference", MoeReference.forward(SHAPE, weights, inputs), expected, tolerance);
            for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
                check(variant.name(), MoeForwardTest.runNative(variant, SHAPE, weights, inputs, 2), expected, tolerance);
            }
        }
    }

    private static void check(String who, float[] actual, double[] expected, double[] tolerance) {
        for (int i = 0; i < expected.length; i++) {
            assertThat((double) actual[i]).as("%s out[%d][%d]", who, i / H, i % H)
                    .isCloseTo(expected[i], Offset.offset(tolerance[i]));
        }
    }

    private static boolean distinguishes(double[] other, double[] expected, double[] tolerance) {
        for (int i = 0; i < expected.length; i++) {
            if (Math.abs(other[i] - expected[i]) > 2 * tolerance[i]) {
                return true;
            }
        }
        return false;
    }

    /** y of expert e for token t at output row r, from h (the SwiGLU of that token at that expert). */
    private static double[] hidden(short[] x, int t, int e, DoubleBinaryOperator swiglu) {
        double[] h = new double[I];
        for (int i = 0; i < I; i++) {
            double up = Bf16.toFloat(x[t * H + i]) * (e == 0 ? 1.0 : 0.5) * G13[e];
            double gate = Bf16.toFloat(x[t * H + I + i]) * (e == 0 ? 2.0 : 1.0) * G13[e];
            h[i] = swiglu.applyAsDouble(up, gate);
        }
        double[] y = new double[H];
        for (int r = 0; r < H; r++) {
            y[r] = e == 0 ? G2[0] * (r < I ? h[r] : -2 * h[r - I]) : (r < I ? h[I - 1 - r] : 0);
        }
        return y;
    }

    private static double[] expected(short[] x, DoubleBinaryOperator swiglu) {
        double[] out = new double[2 * H];
        for (int t = 0; t < 2; t++) {
            for (int j = 0; j < 2; j++) {
                double[] y = hidden(x, t, IDS[2 * t + j], swiglu);
                for (int r = 0; r < H; r++) {
                    out[t * H + r] += WEIGHTS[2 * t + j] * y[r];
                }
            }
        }
        return out;
    }

    /** h is rounded to bf16 (relative error <= 2^-8); everything else is fp32 (1e-6 covers it). */
    private static double[] tolerance(short[] x, DoubleBinaryOperator swiglu) {
        double[] tolerance = new double[2 * H];
        for (int t = 0; t < 2; t++) {
            for (int j = 0; j < 2; j++) {
                double[] y = hidden(x, t, IDS[2 * t + j], swiglu);
                for (int r = 0; r < H; r++) {
                    tolerance[t * H + r] += Math.abs(WEIGHTS[2 * t + j] * y[r]) * (0x1p-8 + 1e-6);
                }
            }
        }
        for (int i = 0; i < tolerance.length; i++) {
            tolerance[i] += 1e-7;
        }
        return tolerance;
    }

    private static MoeWeights weights(Arena arena) {
        int[] w13 = new int[2 * 2 * I * H];
        byte[] w13Scales = new byte[2 * 2 * I * (H / 16)];
        int[] w2 = new int[2 * H * I];
        byte[] w2Scales = new byte[2 * H * (I / 16)];
        for (int e = 0; e < 2; e++) {
            for (int i = 0; i < I; i++) {
                int up = e * 2 * I + i;
                int gate = up + I;
                w13[up * H + i] = ONE;
                w13[gate * H + I + i] = ONE;
                w13Scales[up * 2] = (byte) UP_SCALE[e];
                w13Scales[up * 2 + 1] = (byte) S1;
                w13Scales[gate * 2] = (byte) S1;
                w13Scales[gate * 2 + 1] = (byte) GATE_SCALE[e];
            }
            for (int r = 0; r < H; r++) {
                int row = e * H + r;
                w2Scales[row] = (byte) S1;
                for (int i = 0; i < I; i++) {
                    w2[row * I + i] = e == 1 ? MINUS_ZERO : 0;
                }
                if (e == 0) {
                    w2[row * I + (r < I ? r : r - I)] = r < I ? ONE : MINUS_TWO;
                } else if (r < I) {
                    w2[row * I + (I - 1 - r)] = ONE;
                }
            }
        }
        return MoeWeights.of(SHAPE, pack(w13), w13Scales, G13, pack(w2), w2Scales, G2, arena);
    }

    /** Element 2i in the low nibble of byte i. */
    private static byte[] pack(int[] codes) {
        byte[] packed = new byte[codes.length / 2];
        for (int i = 0; i < packed.length; i++) {
            packed[i] = (byte) (codes[2 * i] | codes[2 * i + 1] << 4);
        }
        return packed;
    }
}
