package dev.servebench.kernels.ggml;

import java.util.SplittableRandom;

/**
 * Supplies fp32 expert weights one expert matrix at a time, so that a model-sized layer (the GLM-5 TP=8
 * shard holds 256 experts × 3 × 6144 × 256 weights) never exists in fp32 on the Java heap.
 *
 * <p>Rows are output features, as in the checkpoint and in ggml: {@code up}/{@code gate} fill
 * {@code out[i * hidden + h]} (weight of input h for output feature i, [I][H]), {@code down} fills
 * {@code out[h * inter + i]} ([H][I]). The arrays arrive with exactly that length.
 */
public interface ExpertWeights {

    void up(int expert, float[] out);

    void gate(int expert, float[] out);

    void down(int expert, float[] out);

    /**
     * Independent uniform weights, reproducible per (seed, expert, matrix): up and gate in ±1/√hidden,
     * down in ±1/√inter (the fan-ins), so activations keep an O(1) scale through the layer.
     */
    static ExpertWeights uniform(long seed, int hidden, int inter) {
        if (hidden < 1 || inter < 1) {
            throw new IllegalArgumentException("hidden = " + hidden + ", inter = " + inter + "; expected both >= 1");
        }
        double upScale = 1 / Math.sqrt(hidden);
        double downScale = 1 / Math.sqrt(inter);
        return new ExpertWeights() {
            @Override
            public void up(int expert, float[] out) {
                fill(out, seed, expert, 0, upScale);
            }

            @Override
            public void gate(int expert, float[] out) {
                fill(out, seed, expert, 1, upScale);
            }

            @Override
            public void down(int expert, float[] out) {
                fill(out, seed, expert, 2, downScale);
            }
        };
    }

    private static void fill(float[] out, long seed, int expert, int matrix, double scale) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + expert * 3L + matrix);
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) ((random.nextDouble() * 2 - 1) * scale);
        }
    }
}
