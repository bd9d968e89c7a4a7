package dev.servebench.kernels.moe;

/**
 * "noaux_tc" router settings (docs/kernels-moe.md, Routing): sigmoid scores, selection on score + bias
 * restricted to the best {@code topkGroup} of {@code nGroup} expert groups, {@code topK} experts per token,
 * weights optionally renormalised to sum 1 and then multiplied by {@code routedScalingFactor}.
 */
public record RoutingConfig(int experts, int topK, int nGroup, int topkGroup, boolean renormalize,
        float routedScalingFactor) {

    /** The C kernel keeps per-expert scores on the stack; no MoE model comes near this. */
    public static final int MAX_EXPERTS = 4096;

    /** GLM-5 (and GLM-4.5/4.7 with 160 experts): one group, plain top-8 over biased scores. */
    public static final RoutingConfig GLM5 = new RoutingConfig(256, 8, 1, 1, true, 2.5f);
    /** DeepSeek-V3: 8 groups of 32 experts, the best 4 groups eligible. */
    public static final RoutingConfig DEEPSEEK_V3 = new RoutingConfig(256, 8, 8, 4, true, 2.5f);

    public RoutingConfig {
        if (experts < 1 || experts > MAX_EXPERTS) {
            throw new IllegalArgumentException("experts = " + experts + "; expected 1.." + MAX_EXPERTS);
        }
        if (topK < 1 || topK > experts) {
            throw new IllegalArgumentException("topK = " + topK + "; expected 1..experts (" + experts + ")");
        }
        if (nGroup < 1 || experts % nGroup != 0) {
            throw new IllegalArgumentException("nGroup = " + nGroup + "; expected a divisor of experts (" + experts + ")");
        }
        if (nGroup == 1 && topkGroup != 1) {
            throw new IllegalArgumentException("topkGroup = " + topkGroup + " with nGroup = 1; expected 1");
        }
        if (nGroup > 1) {
            if (experts / nGroup < 2) {
                throw new IllegalArgumentException("groups of " + (experts / nGroup) + " expert(s); a group's score "
                        + "is the sum of its two best experts, so expected at least 2 per group");
            }
            if (topkGroup < 1 || topkGroup > nGroup) {
                throw new IllegalArgumentException("topkGroup = " + topkGroup + "; expected 1..nGroup (" + nGroup + ")");
            }
            if ((long) topK > (long) topkGroup * (experts / nGroup)) {
                throw new IllegalArgumentException("topK = " + topK + " exceeds the " + topkGroup * (experts / nGroup)
                        + " experts of the " + topkGroup + " eligible groups");
            }
        }
        if (!Float.isFinite(routedScalingFactor)) {
            throw new IllegalArgumentException("routedScalingFactor = " + routedScalingFactor + "; expected a finite value");
        }
    }

    /** GLM-5's settings (one group, renormalised, x2.5) for another expert count and top-k. */
    public static RoutingConfig glm5Like(int experts, int topK) {
        return new RoutingConfig(experts, topK, 1, 1, true, 2.5f);
    }

    int groupSize() {
        return experts / nGroup;
    }
}
