package dev.servebench.kernels.moe;

import java.util.Arrays;

/**
 * The router's decision for {@code tokens} tokens: {@code ids[t*topK + j]} is token t's j-th expert
 * (best first) and {@code weights[t*topK + j]} its combine weight. Immutable: the arrays are copied in
 * and out; {@link #id} and {@link #weight} read without copying.
 */
public record Routing(int tokens, int topK, int[] ids, float[] weights) {

    public Routing {
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens = " + tokens + "; expected at least 1");
        }
        if (topK < 1) {
            throw new IllegalArgumentException("topK = " + topK + "; expected at least 1");
        }
        if (ids == null || weights == null) {
            throw new NullPointerException("ids and weights must not be null");
        }
        long pairs = (long) tokens * topK;
        if (ids.length != pairs || weights.length != pairs) {
            throw new IllegalArgumentException("ids hold " + ids.length + " and weights " + weights.length
                    + " entries; expected tokens*topK = " + pairs);
        }
        ids = ids.clone();
        weights = weights.clone();
    }

    @Override
    public int[] ids() {
        return ids.clone();
    }

    @Override
    public float[] weights() {
        return weights.clone();
    }

    public int id(int token, int slot) {
        return ids[token * topK + slot];
    }

    public float weight(int token, int slot) {
        return weights[token * topK + slot];
    }

    /** Equal when every id and every weight's bit pattern is equal (the routing contract is bit-exact). */
    @Override
    public boolean equals(Object other) {
        return other instanceof Routing r && r.tokens == tokens && r.topK == topK && Arrays.equals(r.ids, ids)
                && Arrays.equals(r.weights, weights);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(ids) + Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return "Routing[tokens=" + tokens + ", topK=" + topK + ", ids=" + Arrays.toString(ids) + ", weights="
                + Arrays.toString(weights) + "]";
    }
}
