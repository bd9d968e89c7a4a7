package dev.servebench.kernels.moe;

/**
 * The routed-expert block of one MoE layer as one device sees it: hidden size H, intermediate size I
 * per expert (already divided by the tensor-parallel degree), E experts, top-k per token.
 */
public record MoeShape(int hidden, int inter, int experts, int topK) {

    /** Largest H or I the kernels accept (the C library's limit). */
    public static final int MAX_DIMENSION = 1 << 20;

    /** GLM-5 at TP=8 without expert parallelism: every GPU holds all 256 experts with I = 2048/8. */
    public static final MoeShape GLM5_TP8 = new MoeShape(6144, 256, 256, 8);
    /** Scaled down for tests: the same structure in a few hundred kilobytes. */
    public static final MoeShape SMALL = new MoeShape(256, 64, 16, 4);

    public MoeShape {
        requireDimension("hidden", hidden);
        requireDimension("inter", inter);
        if (experts < 1 || experts > MAX_DIMENSION) {
            throw new IllegalArgumentException("experts = " + experts + "; expected 1.." + MAX_DIMENSION);
        }
        if (topK < 1 || topK > experts) {
            throw new IllegalArgumentException("topK = " + topK + "; expected 1..experts (" + experts + ")");
        }
    }

    private static void requireDimension(String name, int value) {
        if (value < 16 || value % 16 != 0 || value > MAX_DIMENSION) {
            throw new IllegalArgumentException(name + " = " + value + "; expected a multiple of 16 (the NVFP4 block) in 16.."
                    + MAX_DIMENSION);
        }
    }

    /** Useful FLOPs of the routed experts for {@code tokens} tokens: 2*T*k*(2I*H + H*I) = 6*H*I*T*k. */
    public long usefulFlops(long tokens) {
        return 6L * hidden * inter * tokens * topK;
    }

    /**
     * NVFP4 bytes of one expert: three H x I matrices at half a byte per element plus one E4M3 scale per
     * 16 elements, and the two fp32 global scales (w13, w2).
     */
    public long expertWeightBytes() {
        long elements = 3L * hidden * inter;
        return elements / 2 + elements / 16 + 8;
    }

    /** Elements of w13 for all experts: [E, 2I, H]. */
    long w13Elements() {
        return (long) experts * 2 * inter * hidden;
    }

    /** Elements of w2 for all experts: [E, H, I]. */
    long w2Elements() {
        return (long) experts * hidden * inter;
    }
}
