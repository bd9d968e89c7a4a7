package dev.servebench.kernels.ggml;

/**
 * Dimensions of one routed-expert MoE layer: {@code hidden} (H, model width), {@code inter} (I, the
 * per-expert FFN width, already divided by the tensor-parallel degree for a TP shard), {@code experts}
 * (E), {@code topK} (k, experts per token) and {@code tokens} (T, the batch).
 */
public record GgmlBatchShape(int hidden, int inter, int experts, int topK, int tokens) {

    public GgmlBatchShape {
        positive("hidden", hidden);
        positive("inter", inter);
        positive("experts", experts);
        positive("topK", topK);
        positive("tokens", tokens);
        if (topK > experts) {
            throw new IllegalArgumentException("topK = " + topK + " exceeds experts = " + experts
                    + "; expected 1 <= topK <= experts");
        }
        // Java arrays carry the activations ([T][H]) and one expert matrix ([I][H]) at a time.
        fitsArray("tokens × hidden", (long) tokens * hidden);
        fitsArray("tokens × topK × max(hidden, inter)", (long) tokens * topK * Math.max(hidden, inter));
        fitsArray("inter × hidden", (long) inter * hidden);
    }

    /** Rejects row lengths the weight type cannot block (Q4_0 and its Q8_0 activations need multiples of 32). */
    public GgmlBatchShape requireBlocks(GgmlWeightType type) {
        int block = type.blockSize();
        if (hidden % block != 0 || inter % block != 0) {
            throw new IllegalArgumentException(type + " packs rows in blocks of " + block + "; hidden = " + hidden
                    + " and inter = " + inter + " must both be multiples of " + block);
        }
        return this;
    }

    /** Elements of the activation input x and of the output, [T][H]. */
    public int activationElements() {
        return tokens * hidden;
    }

    /** Elements of the routing arrays ids and weights, [T][k]. */
    public int routingElements() {
        return tokens * topK;
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " = " + value + "; expected at least 1");
        }
    }

    private static void fitsArray(String what, long elements) {
        if (elements > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(what + " = " + elements + " elements; expected at most "
                    + (Integer.MAX_VALUE - 8) + " (one Java array)");
        }
    }
}
