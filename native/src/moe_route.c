/* sb_moe_route: GLM-5 / DeepSeek-V3 "noaux_tc" routing (docs/kernels-moe.md, Routing), bit-identical to the
 * Java reference RoutingReference: every float operation happens in the same order in both. */
#include "moe_internal.h"

/* a ranks before b (higher score; ties to the lower index, which the ascending scans below supply). */
static inline int sb_moe_better(float a, float b) { return a > b; }

static int sb_moe_route_arguments_ok(const float *logits, const float *bias, int64_t tokens, int32_t experts,
                                     int32_t top_k, int32_t n_group, int32_t topk_group, int32_t renormalize,
                                     float scaling, const int32_t *ids, const float *weights) {
    if (logits == NULL || ids == NULL || weights == NULL) return 0;
    if (tokens < 1 || tokens > ((int64_t)1 << 40) / (experts > 0 ? experts : 1)) return 0;
    if (experts < 1 || experts > SB_MOE_MAX_EXPERTS) return 0;
    if (top_k < 1 || top_k > experts) return 0;
    if (renormalize != 0 && renormalize != 1) return 0;
    if (!isfinite(scaling)) return 0;
    if (n_group < 1 || experts % n_group != 0) return 0;
    if (n_group == 1) {
        if (topk_group != 1) return 0;
    } else {
        /* a group's score is the sum of its two best experts, so a group needs two */
        if (experts / n_group < 2) return 0;
        if (topk_group < 1 || topk_group > n_group) return 0;
        if ((int64_t)top_k > (int64_t)topk_group * (experts / n_group)) return 0;
    }
    /* NaN has no place in a ranking; an infinite bias could make a group score NaN. */
    for (int64_t i = 0; i < tokens * experts; i++) {
        if (isnan(logits[i])) return 0;
    }
    if (bias != NULL) {
        for (int32_t e = 0; e < experts; e++) {
            if (!isfinite(bias[e])) return 0;
        }
    }
    return 1;
}

int32_t sb_moe_route(const float *logits, const float *selection_bias, int64_t tokens, int32_t experts,
                     int32_t top_k, int32_t n_group, int32_t topk_group, int32_t renormalize,
                     float routed_scaling_factor, int32_t *topk_ids, float *topk_weights) {
    if (!sb_moe_route_arguments_ok(logits, selection_bias, tokens, experts, top_k, n_group, topk_group,
                                   renormalize, routed_scaling_factor, topk_ids, topk_weights)) {
        return SB_ERR_ARGUMENT;
    }
    int32_t group_size = experts / n_group;
    float score[SB_MOE_MAX_EXPERTS];  /* unbiased sigmoid scores */
    float pick[SB_MOE_MAX_EXPERTS];   /* biased selection scores */
    uint8_t allowed[SB_MOE_MAX_EXPERTS];
    for (int64_t t = 0; t < tokens; t++) {
        const float *row = logits + t * experts;
        for (int32_t e = 0; e < experts; e++) {
            score[e] = sb_moe_sigmoid(row[e]);
            pick[e] = selection_bias != NULL ? score[e] + selection_bias[e] : score[e];
            allowed[e] = n_group == 1;
        }
        if (n_group > 1) {
            float group_score[SB_MOE_MAX_EXPERTS / 2];
            uint8_t group_taken[SB_MOE_MAX_EXPERTS / 2];
            for (int32_t g = 0; g < n_group; g++) {
                const float *p = pick + (int64_t)g * group_size;
                int32_t first = 0;
                for (int32_t i = 1; i < group_size; i++) {
                    if (sb_moe_better(p[i], p[first])) first = i;
                }
                int32_t second = first == 0 ? 1 : 0;
                for (int32_t i = 0; i < group_size; i++) {
                    if (i != first && sb_moe_better(p[i], p[second])) second = i;
                }
                group_score[g] = p[first] + p[second];
                group_taken[g] = 0;
            }
            for (int32_t n = 0; n < topk_group; n++) {
                int32_t best = -1;
                for (int32_t g = 0; g < n_group; g++) {
                    if (!group_taken[g] && (best < 0 || sb_moe_better(group_score[g], group_score[best]))) best = g;
                }
                group_taken[best] = 1;
                memset(allowed + (int64_t)best * group_size, 1, (size_t)group_size);
            }
        }
        int32_t *ids = topk_ids + t * top_k;
        float *weights = topk_weights + t * top_k;
        for (int32_t j = 0; j < top_k; j++) {
            int32_t best = -1;
            for (int32_t e = 0; e < experts; e++) {
                if (allowed[e] && (best < 0 || sb_moe_better(pick[e], pick[best]))) best = e;
            }
            allowed[best] = 0;
            ids[j] = best;
            weights[j] = score[best];
        }
        if (renormalize) {
            float sum = 0.0f;
            for (int32_t j = 0; j < top_k; j++) sum += weights[j];
            float denominator = sum + 1e-20f;
            for (int32_t j = 0; j < top_k; j++) weights[j] = weights[j] / denominator;
        }
        for (int32_t j = 0; j < top_k; j++) weights[j] = weights[j] * routed_scaling_factor;
    }
    return SB_OK;
}
