/* sb_moe_w4a16: routed experts with NVFP4 weights decoded on the fly, bf16 activations, fp32 sums.
 *
 * Pipeline (docs/kernels-moe.md, Kernel pipeline): stable counting sort of the (token, slot) pairs by expert;
 * GEMM1 + SwiGLU over work items (expert, block of 32 intermediate rows, i.e. 32 up rows + the 32 matching
 * gate rows); GEMM2 + finalize over work items (block of up to 128 output rows, for every expert, then the
 * finalize of those rows in slot order). Inside an item the tile kernels read each weight row once for all of
 * that expert's tokens. Every output element is computed by one thread in a fixed order, so results do not
 * depend on `threads` (nor on the blocking, which only groups whole dot products). */
#include <omp.h>
#include <stddef.h>
#include "moe_internal.h"

#define SB_MOE_INTER_BLOCK 32
#define SB_MOE_HIDDEN_BLOCK 128

static const float SB_E2M1[16] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
                                  -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

static float sb_moe_e4m3(unsigned b) {
    unsigned e = (b >> 3) & 15u, m = b & 7u;
    float v;
    if (e == 15 && m == 7) v = NAN;
    else if (e == 0) v = (float)m * 0x1p-9f;
    else v = ldexpf(1.0f + (float)m / 8.0f, (int)e - 7);
    return (b & 0x80u) ? -v : v;
}

static void sb_moe_build_tables(sb_moe_tables *t) {
    for (unsigned s = 0; s < 256; s++) {
        float scale = sb_moe_e4m3(s);
        t->scale[s] = scale;
        for (unsigned c = 0; c < 16; c++) {
            float v = SB_E2M1[c] * scale; /* at most 6 significant bits: exact in fp32 and bf16 */
            t->f32[s * 16 + c] = v;
            t->bf16[s * 16 + c] = sb_f32_to_bf16(v);
        }
    }
}

/* Byte offsets of the workspace regions, each 64-byte aligned. */
typedef struct {
    int64_t offsets, active, pos_pair, pair_pos, act1, act2, tables, ug, h16, h32, xf, y, total;
} sb_moe_layout;

static int sb_moe_take(int64_t *cursor, int64_t count, int64_t element, int64_t *offset) {
    int64_t bytes;
    if (__builtin_mul_overflow(count, element, &bytes)) return 0;
    bytes = (bytes + 63) & ~(int64_t)63;
    *offset = *cursor;
    return !__builtin_add_overflow(*cursor, bytes, cursor);
}

static int sb_moe_shape_ok(int64_t tokens, int64_t hidden, int64_t inter, int32_t experts, int32_t top_k) {
    if (tokens < 1 || tokens > ((int64_t)1 << 24)) return 0;
    if (hidden < 16 || hidden % 16 != 0 || hidden > ((int64_t)1 << 20)) return 0;
    if (inter < 16 || inter % 16 != 0 || inter > ((int64_t)1 << 20)) return 0;
    if (experts < 1 || experts > (1 << 20)) return 0;
    if (top_k < 1 || top_k > experts) return 0;
    return tokens * top_k <= INT32_MAX;
}

static int sb_moe_plan_layout(int64_t tokens, int64_t hidden, int64_t inter, int32_t experts, int32_t top_k,
                              sb_moe_layout *l) {
    if (!sb_moe_shape_ok(tokens, hidden, inter, experts, top_k)) return 0;
    int64_t pairs = tokens * top_k, cursor = 0;
    return sb_moe_take(&cursor, experts + 1, 4, &l->offsets) && sb_moe_take(&cursor, experts, 4, &l->active) &&
           sb_moe_take(&cursor, pairs, 4, &l->pos_pair) && sb_moe_take(&cursor, pairs, 4, &l->pair_pos) &&
           sb_moe_take(&cursor, pairs, (int64_t)sizeof(void *), &l->act1) &&
           sb_moe_take(&cursor, pairs, (int64_t)sizeof(void *), &l->act2) &&
           sb_moe_take(&cursor, 1, (int64_t)sizeof(sb_moe_tables), &l->tables) &&
           sb_moe_take(&cursor, pairs, 2 * inter * 4, &l->ug) && sb_moe_take(&cursor, pairs, inter * 2, &l->h16) &&
           sb_moe_take(&cursor, pairs, inter * 4, &l->h32) && sb_moe_take(&cursor, tokens, hidden * 4, &l->xf) &&
           sb_moe_take(&cursor, pairs, hidden * 4, &l->y) && (l->total = cursor) > 0;
}

int64_t sb_moe_workspace_bytes(int64_t tokens, int64_t hidden, int64_t inter, int32_t experts, int32_t top_k) {
    sb_moe_layout l;
    return sb_moe_plan_layout(tokens, hidden, inter, experts, top_k, &l) ? l.total + 63 : -1;
}

typedef void (*sb_moe_rows_fn)(const sb_moe_matrix *, int64_t, int64_t, const sb_moe_batch *,
                               const sb_moe_tables *);
typedef void (*sb_moe_swiglu_fn)(const float *, const float *, int64_t, uint16_t *, float *);

static int32_t moe_w4a16(const uint16_t *x, int64_t tokens, int64_t hidden, int64_t inter, int32_t experts,
                         int32_t top_k, const int32_t *topk_ids, const float *topk_weights,
                         const uint8_t *w13_packed, const uint8_t *w13_scales, const float *w13_global,
                         const uint8_t *w2_packed, const uint8_t *w2_scales, const float *w2_global,
                         float *out, void *workspace, int64_t workspace_bytes, int32_t threads) {
    sb_moe_layout l;
    if (x == NULL || topk_ids == NULL || topk_weights == NULL || w13_packed == NULL || w13_scales == NULL ||
        w13_global == NULL || w2_packed == NULL || w2_scales == NULL || w2_global == NULL || out == NULL ||
        workspace == NULL) {
        return SB_ERR_ARGUMENT;
    }
    if (!sb_moe_plan_layout(tokens, hidden, inter, experts, top_k, &l)) return SB_ERR_ARGUMENT;
    if (workspace_bytes < l.total + 63) return SB_ERR_ARGUMENT;
    const int64_t pairs = tokens * top_k, H = hidden, I = inter;
    for (int64_t p = 0; p < pairs; p++) {
        if (topk_ids[p] < 0 || topk_ids[p] >= experts) return SB_ERR_ARGUMENT;
    }

    char *ws = (char *)(((uintptr_t)workspace + 63) & ~(uintptr_t)63);
    int32_t *offsets = (int32_t *)(ws + l.offsets);
    int32_t *active = (int32_t *)(ws + l.active);
    int32_t *pos_pair = (int32_t *)(ws + l.pos_pair);
    int32_t *pair_pos = (int32_t *)(ws + l.pair_pos);
    const void **act1 = (const void **)(ws + l.act1);
    const void **act2 = (const void **)(ws + l.act2);
    sb_moe_tables *tables = (sb_moe_tables *)(ws + l.tables);
    float *ug = (float *)(ws + l.ug);
    uint16_t *h16 = (uint16_t *)(ws + l.h16);
    float *h32 = (float *)(ws + l.h32);
    float *xf = (float *)(ws + l.xf);
    float *y = (float *)(ws + l.y);

    /* Stable counting sort by expert: positions follow (expert, token, slot). */
    memset(offsets, 0, sizeof(int32_t) * (size_t)(experts + 1));
    for (int64_t p = 0; p < pairs; p++) offsets[topk_ids[p] + 1]++;
    int32_t n_active = 0;
    for (int32_t e = 0; e < experts; e++) {
        if (offsets[e + 1] > 0) active[n_active++] = e;
        offsets[e + 1] += offsets[e];
    }
    for (int64_t p = 0; p < pairs; p++) {
        int32_t pos = offsets[topk_ids[p]]++;
        pos_pair[pos] = (int32_t)p;
        pair_pos[p] = pos;
    }
    for (int32_t e = experts; e > 0; e--) offsets[e] = offsets[e - 1];
    offsets[0] = 0;
    sb_moe_build_tables(tables);

    int isa = sb_isa();
    (void)isa; /* unused in the scalar build */
    sb_moe_rows_fn rows = sb_moe_rows_scalar;
    sb_moe_swiglu_fn swiglu = sb_moe_swiglu_scalar;
    int fp32_activations = 0;
#if SB_MAX_ISA >= 3
    if (isa == SB_ISA_AVX512BF16) {
        rows = sb_moe_rows_avx512;
        swiglu = sb_moe_swiglu_avx512;
    }
#endif
#if SB_MAX_ISA >= 2
    if (isa == SB_ISA_AVX2) {
        rows = sb_moe_rows_avx2;
        swiglu = sb_moe_swiglu_avx2;
        fp32_activations = 1; /* the AVX2 kernel multiplies fp32 by fp32; convert bf16 once */
    }
#endif
    for (int64_t pos = 0; pos < pairs; pos++) {
        int64_t t = pos_pair[pos] / top_k;
        act1[pos] = fp32_activations ? (const void *)(xf + t * H) : (const void *)(x + t * H);
        act2[pos] = fp32_activations ? (const void *)(h32 + pos * I) : (const void *)(h16 + pos * I);
    }

    const int64_t inter_blocks = (I + SB_MOE_INTER_BLOCK - 1) / SB_MOE_INTER_BLOCK;
    const int64_t items1 = n_active * inter_blocks;
    int n = sb_clamp_threads(threads);
    /* GEMM2 items own a block of output rows for every expert and finalize it right away (no barrier
     * between GEMM2 and finalize, and y is read back while in cache); at least 4 items per thread. */
    int64_t hidden_block = SB_MOE_HIDDEN_BLOCK;
    if (H < hidden_block * 4 * n) hidden_block = (H / (4 * n)) & ~(int64_t)15;
    if (hidden_block < 16) hidden_block = 16;
    const int64_t items2 = (H + hidden_block - 1) / hidden_block;

#pragma omp parallel num_threads(n)
    {
        if (fp32_activations) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < tokens * H; i++) xf[i] = sb_bf16_to_f32(x[i]);
        }

#pragma omp for schedule(dynamic, 1)
        for (int64_t item = 0; item < items1; item++) {
            int32_t e = active[item / inter_blocks];
            int64_t i0 = (item % inter_blocks) * SB_MOE_INTER_BLOCK;
            int64_t i1 = i0 + SB_MOE_INTER_BLOCK < I ? i0 + SB_MOE_INTER_BLOCK : I;
            sb_moe_matrix w13 = {w13_packed + (int64_t)e * 2 * I * (H / 2),
                                 w13_scales + (int64_t)e * 2 * I * (H / 16), H, w13_global[e]};
            int32_t begin = offsets[e], m = offsets[e + 1] - offsets[e];
            sb_moe_batch batch = {act1 + begin, m, ug + (int64_t)begin * 2 * I, 2 * I};
            rows(&w13, i0, i1, &batch, tables);         /* up */
            rows(&w13, I + i0, I + i1, &batch, tables); /* gate */
            for (int64_t pos = begin; pos < begin + m; pos++) {
                const float *u = ug + pos * 2 * I;
                swiglu(u + i0, u + I + i0, i1 - i0, h16 + pos * I + i0,
                       fp32_activations ? h32 + pos * I + i0 : NULL);
            }
        }

#pragma omp for schedule(dynamic, 1)
        for (int64_t item = 0; item < items2; item++) {
            int64_t r0 = item * hidden_block;
            int64_t r1 = r0 + hidden_block < H ? r0 + hidden_block : H;
            for (int32_t a = 0; a < n_active; a++) {
                int32_t e = active[a];
                sb_moe_matrix w2 = {w2_packed + (int64_t)e * H * (I / 2), w2_scales + (int64_t)e * H * (I / 16), I,
                                    w2_global[e]};
                int32_t begin = offsets[e];
                sb_moe_batch batch = {act2 + begin, offsets[e + 1] - begin, y + (int64_t)begin * H, H};
                rows(&w2, r0, r1, &batch, tables);
            }
            /* Finalize in slot order j = 0..k-1, as the reference: out = 0; out += w_j * y_j. */
            for (int64_t t = 0; t < tokens; t++) {
                float *o = out + t * H;
                for (int64_t r = r0; r < r1; r++) o[r] = 0.0f;
                for (int32_t j = 0; j < top_k; j++) {
                    float w = topk_weights[t * top_k + j];
                    const float *yj = y + (int64_t)pair_pos[t * top_k + j] * H;
                    for (int64_t r = r0; r < r1; r++) o[r] = o[r] + w * yj[r];
                }
            }
        }
    }
    return SB_OK;
}

int32_t sb_moe_w4a16(const uint16_t *x, int64_t tokens, int64_t hidden, int64_t inter, int32_t experts,
                     int32_t top_k, const int32_t *topk_ids, const float *topk_weights,
                     const uint8_t *w13_packed, const uint8_t *w13_scales, const float *w13_global,
                     const uint8_t *w2_packed, const uint8_t *w2_scales, const float *w2_global,
                     float *out, void *workspace, int64_t workspace_bytes, int32_t threads) {
    int64_t start = sb_slowdown_start();
    return sb_slowdown_finish(start, moe_w4a16(x, tokens, hidden, inter, experts, top_k, topk_ids, topk_weights,
                                               w13_packed, w13_scales, w13_global, w2_packed, w2_scales, w2_global,
                                               out, workspace, workspace_bytes, threads));
}
