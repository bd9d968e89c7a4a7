package dev.servebench.kernels.moe;

/**
 * The scalar Java definition of "noaux_tc" routing (docs/kernels-moe.md, Routing). {@code sb_moe_route}
 * performs the same float operations in the same order, so the two agree bit for bit:
 * <ol>
 *   <li>{@code s[e] = MoeMath.sigmoid(logit[e])}, {@code pick[e] = s[e] + bias[e]} (float add);</li>
 *   <li>with {@code nGroup > 1}: group score = best + second-best pick of the group; the best
 *       {@code topkGroup} groups stay eligible, the other groups' experts cannot be picked (excluded, as
 *       SGLang's {@code -inf} mask; HF's mask to 0 differs only when biased scores are negative);</li>
 *   <li>{@code topK} eligible experts by pick, descending;</li>
 *   <li>weights = unbiased {@code s} of the chosen; with renormalisation each is divided by
 *       {@code (s_0 + ... + s_{k-1}) + 1e-20f} (summed in slot order), then multiplied by
 *       {@code routedScalingFactor}.</li>
 * </ol>
 * Every ranking is strict "greater" with ties to the lower index (expert or group), and {@code -0.0}
 * ties with {@code 0.0}. NaN logits and non-finite biases are rejected: they have no rank.
 */
public final class RoutingReference {

    private RoutingReference() {
    }

    /**
     * Routes {@code tokens} tokens from router logits {@code [tokens, experts]}; {@code bias} is the
     * per-expert selection bias ({@code e_score_correction_bias}) or null for none.
     */
    public static Routing route(float[] logits, float[] bias, int tokens, RoutingConfig config) {
        requireInputs(logits, bias, tokens, config);
        int experts = config.experts();
        int topK = config.topK();
        int[] ids = new int[tokens * topK];
        float[] weights = new float[tokens * topK];
        float[] score = new float[experts];
        float[] pick = new float[experts];
        boolean[] eligible = new boolean[experts];
        for (int t = 0; t < tokens; t++) {
            for (int e = 0; e < experts; e++) {
                score[e] = MoeMath.sigmoid(logits[t * experts + e]);
                pick[e] = bias != null ? score[e] + bias[e] : score[e];
                eligible[e] = config.nGroup() == 1;
            }
            if (config.nGroup() > 1) {
                markBestGroups(pick, config, eligible);
            }
            for (int j = 0; j < topK; j++) {
                int best = -1;
                for (int e = 0; e < experts; e++) {
                    if (eligible[e] && (best < 0 || pick[e] > pick[best])) {
                        best = e;
                    }
                }
                eligible[best] = false;
                ids[t * topK + j] = best;
                weights[t * topK + j] = score[best];
            }
            if (config.renormalize()) {
                float sum = 0f;
                for (int j = 0; j < topK; j++) {
                    sum += weights[t * topK + j];
                }
                float denominator = sum + 1e-20f;
                for (int j = 0; j < topK; j++) {
                    weights[t * topK + j] = weights[t * topK + j] / denominator;
                }
            }
            for (int j = 0; j < topK; j++) {
                weights[t * topK + j] = weights[t * topK + j] * config.routedScalingFactor();
            }
        }
        return new Routing(tokens, topK, ids, weights);
    }

    private static void markBestGroups(float[] pick, RoutingConfig config, boolean[] eligible) {
        int groups = config.nGroup();
        int size = config.groupSize();
        float[] groupScore = new float[groups];
        for (int g = 0; g < groups; g++) {
            int base = g * size;
            int first = 0;
            for (int i = 1; i < size; i++) {
                if (pick[base + i] > pick[base + first]) {
                    first = i;
                }
            }
            int second = first == 0 ? 1 : 0;
            for (int i = 0; i < size; i++) {
                if (i != first && pick[base + i] > pick[base + second]) {
                    second = i;
                }
            }
            groupScore[g] = pick[base + first] + pick[base + second];
        }
        boolean[] taken = new boolean[groups];
        for (int n = 0; n < config.topkGroup(); n++) {
            int best = -1;
            for (int g = 0; g < groups; g++) {
                if (!taken[g] && (best < 0 || groupScore[g] > groupScore[best])) {
                    best = g;
                }
            }
            taken[best] = true;
            for (int i = 0; i < size; i++) {
                eligible[best * size + i] = true;
            }
        }
    }

    /** The checks both the reference and the native binding apply before routing. */
    static void requireInputs(float[] logits, float[] bias, int tokens, RoutingConfig config) {
        if (config == null) {
            throw new NullPointerException("config is null");
        }
        if (logits == null) {
            throw new NullPointerException("logits is null; expected tokens*experts router logits");
        }
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens = " + tokens + "; expected at least 1");
        }
        if (logits.length != (long) tokens * config.experts()) {
            throw new IllegalArgumentException("logits hold " + logits.length + " values; expected tokens*experts = "
                    + (long) tokens * config.experts());
        }
        for (int i = 0; i < logits.length; i++) {
            if (Float.isNaN(logits[i])) {
                throw new IllegalArgumentException("logits[" + i + "] is NaN (token " + i / config.experts()
                        + ", expert " + i % config.experts() + "); NaN has no rank");
            }
        }
        if (bias != null) {
            if (bias.length != config.experts()) {
                throw new IllegalArgumentException("bias holds " + bias.length + " values; expected experts = "
                        + config.experts());
            }
            for (int e = 0; e < bias.length; e++) {
                if (!Float.isFinite(bias[e])) {
                    throw new IllegalArgumentException("bias[" + e + "] = " + bias[e] + "; expected a finite value");
                }
            }
        }
    }
}
