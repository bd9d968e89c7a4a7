package dev.servebench.kernels.results;

/**
 * MoE shape as the benchmarks name it in their {@code shape} parameter: {@code HxIxExk}
 * (hidden, per-rank intermediate, routed experts, experts per token), e.g. {@code 6144x256x256x8}
 * for the GLM-5 TP=8 shard.
 */
record MoeDims(long hidden, long inter, long experts, long topK) {

    MoeDims {
        if (hidden < 1 || inter < 1 || experts < 1 || topK < 1 || topK > experts) {
            throw new IllegalArgumentException("MoE shape " + hidden + "x" + inter + "x" + experts + "x" + topK
                    + " is invalid; expected positive sizes and topK <= experts");
        }
    }

    static MoeDims parse(String text) {
        String[] parts = text.split("x");
        if (parts.length != 4) {
            throw new IllegalArgumentException("MoE shape \"" + text + "\"; expected HxIxExk, e.g. 6144x256x256x8");
        }
        try {
            return new MoeDims(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]),
                    Long.parseLong(parts[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("MoE shape \"" + text + "\"; expected four integers HxIxExk", e);
        }
    }

    /** docs/kernels-moe.md, FLOP and byte formulas: 6·H·I·T·k (gate+up and down GEMMs of the routed experts,
     * useful rows only). */
    double usefulFlops(long tokens) {
        return 6.0 * hidden * inter * tokens * topK;
    }

    /**
     * NVFP4 weight bytes of the experts a uniform routing is expected to touch: E·(1 − (1 − k/E)^T) experts
     * of 3·H·I·(0.5 + 1/16) bytes each (docs/kernels-moe.md, FLOP and byte formulas). An expectation, named
     * as such in the report.
     */
    double expectedActiveWeightBytes(long tokens) {
        double active = experts * (1 - Math.pow(1 - (double) topK / experts, tokens));
        return active * 3.0 * hidden * inter * (0.5 + 1.0 / 16);
    }
}
