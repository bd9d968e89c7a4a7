package dev.servebench.kernels.moe;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Router logits {@code [tokens, experts]} and the per-expert selection bias, as a gate projection and
 * {@code e_score_correction_bias} would produce them; seeded random for benchmarks and tests.
 */
public record RouterInputs(int tokens, float[] logits, float[] bias) {

    /**
     * Bias scale: enough to reorder close scores, small next to the spread of the sigmoid scores (~0.2)
     * so that it does not favour experts (a trained bias balances the load; a random one would skew it).
     */
    private static final double BIAS_SIGMA = 0.01;
    private static final float HOT_BOOST = 3f;

    public RouterInputs {
        Objects.requireNonNull(logits, "logits");
        Objects.requireNonNull(bias, "bias");
        if (tokens < 1 || logits.length % tokens != 0 || logits.length / tokens != bias.length) {
            throw new IllegalArgumentException("logits hold " + logits.length + " values and bias " + bias.length
                    + "; expected tokens (" + tokens + ") * bias.length logits");
        }
        logits = logits.clone();
        bias = bias.clone();
    }

    @Override
    public float[] logits() {
        return logits.clone();
    }

    @Override
    public float[] bias() {
        return bias.clone();
    }

    public static RouterInputs random(MoeShape shape, int tokens, long seed, RoutingSkew skew) {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(skew, "skew");
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens = " + tokens + "; expected at least 1");
        }
        int experts = shape.experts();
        SplittableRandom random = new SplittableRandom(seed);
        float[] bias = new float[experts];
        for (int e = 0; e < experts; e++) {
            bias[e] = (float) (BIAS_SIGMA * random.nextGaussian());
        }
        boolean[] hot = new boolean[experts];
        if (skew == RoutingSkew.HOT_EXPERTS) {
            int count = Math.max(shape.topK(), experts / 16);
            for (int chosen = 0; chosen < count; ) {
                int e = random.nextInt(experts);
                if (!hot[e]) {
                    hot[e] = true;
                    chosen++;
                }
            }
        }
        float[] logits = new float[Math.multiplyExact(tokens, experts)];
        for (int i = 0; i < logits.length; i++) {
            logits[i] = (float) random.nextGaussian() + (hot[i % experts] ? HOT_BOOST : 0f);
        }
        return new RouterInputs(tokens, logits, bias);
    }
}
