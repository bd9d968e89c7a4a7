package dev.servebench.kernels.ggml;

import java.util.function.UnaryOperator;

/**
 * The routed-expert SwiGLU MoE in double precision, written from the formula, not from ggml:
 * {@code out[t] = Σ_j w[t][j] · down_e · (silu(gate_e · x[t]) ⊙ (up_e · x[t]))} with {@code e = ids[t][j]}.
 *
 * <p>{@code activation} rounds an fp32 activation row the way the weight type's matrix product does before
 * multiplying (identity for F32); it is applied to x and to the SwiGLU product, the two inputs of the
 * three matrix products.
 */
final class MoeReference {

    /** Expert matrices in fp32 as the products see them: the originals, or values decoded from a tensor. */
    interface Matrices {
        float[] up(int expert);

        float[] gate(int expert);

        float[] down(int expert);
    }

    private MoeReference() {
    }

    static double[] compute(GgmlBatchShape shape, Matrices matrices, float[] x, int[] ids, float[] weights,
            UnaryOperator<float[]> activation) {
        int h = shape.hidden();
        int n = shape.inter();
        int k = shape.topK();
        double[] out = new double[shape.activationElements()];
        for (int t = 0; t < shape.tokens(); t++) {
            float[] row = new float[h];
            System.arraycopy(x, t * h, row, 0, h);
            float[] xr = activation.apply(row);
            for (int j = 0; j < k; j++) {
                int e = ids[t * k + j];
                float[] up = matrices.up(e);
                float[] gate = matrices.gate(e);
                float[] down = matrices.down(e);
                float[] par = new float[n];
                for (int i = 0; i < n; i++) {
                    double u = 0;
                    double g = 0;
                    for (int c = 0; c < h; c++) {
                        u += (double) up[i * h + c] * xr[c];
                        g += (double) gate[i * h + c] * xr[c];
                    }
                    double silu = g / (1 + Math.exp(-g));
                    par[i] = (float) (silu * u);
                }
                float[] parRounded = activation.apply(par);
                double w = weights[t * k + j];
                for (int c = 0; c < h; c++) {
                    double d = 0;
                    for (int i = 0; i < n; i++) {
                        d += (double) down[c * n + i] * parRounded[i];
                    }
                    out[t * h + c] += w * d;
                }
            }
        }
        return out;
    }

    /** ‖got − expected‖₂ / ‖expected‖₂ over the whole batch. */
    static double relativeError(float[] got, double[] expected) {
        double diff = 0;
        double norm = 0;
        for (int i = 0; i < expected.length; i++) {
            double d = got[i] - expected[i];
            diff += d * d;
            norm += expected[i] * expected[i];
        }
        return Math.sqrt(diff / norm);
    }

    /** max over tokens of (max |got − expected| / max |expected|) within the token's row. */
    static double worstTokenError(float[] got, double[] expected, int hidden) {
        double worst = 0;
        for (int t = 0; t < expected.length / hidden; t++) {
            double maxDiff = 0;
            double maxRef = 0;
            for (int c = t * hidden; c < (t + 1) * hidden; c++) {
                maxDiff = Math.max(maxDiff, Math.abs(got[c] - expected[c]));
                maxRef = Math.max(maxRef, Math.abs(expected[c]));
            }
            worst = Math.max(worst, maxDiff / maxRef);
        }
        return worst;
    }
}
