package dev.servebench.kernels.moe;

/** How random router logits distribute tokens over experts. */
public enum RoutingSkew {
    /** Independent N(0,1) logits: every expert equally likely (the usual benchmark assumption). */
    UNIFORM,
    /**
     * A seeded set of max(topK, E/16) hot experts gets +3 on its logits (sigmoid ~0.95 against ~0.5),
     * so nearly every token picks most of them: a few experts carry most of the work, the load
     * imbalance a kernel's work split must survive.
     */
    HOT_EXPERTS
}
