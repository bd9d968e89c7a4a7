package dev.servebench.kernels.ggml;

import java.util.SplittableRandom;

/** A seeded MoE input: activations in [−1, 1], k distinct experts per token, positive weights summing to 1. */
record Batch(float[] x, int[] ids, float[] weights) {

    static Batch random(GgmlBatchShape shape, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] x = new float[shape.activationElements()];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (random.nextDouble() * 2 - 1);
        }
        int k = shape.topK();
        int[] ids = new int[shape.routingElements()];
        float[] weights = new float[shape.routingElements()];
        for (int t = 0; t < shape.tokens(); t++) {
            boolean[] taken = new boolean[shape.experts()];
            double sum = 0;
            for (int j = 0; j < k; j++) {
                int e;
                do {
                    e = random.nextInt(shape.experts());
                } while (taken[e]);
                taken[e] = true;
                ids[t * k + j] = e;
                weights[t * k + j] = (float) (0.1 + random.nextDouble());
                sum += weights[t * k + j];
            }
            for (int j = 0; j < k; j++) {
                weights[t * k + j] = (float) (weights[t * k + j] / sum);
            }
        }
        return new Batch(x, ids, weights);
    }
}
