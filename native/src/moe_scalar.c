/* Portable tile kernel. Its summation order is the Java reference's (MoeReference), so the scalar
 * build reproduces the reference bit for bit: 16 lanes, lane l sums elements i = l (mod 16) in
 * increasing i, then the lanes are added pairwise (l += l + 8, + 4, + 2, + 1). */
#include "moe_internal.h"

#define SB_MOE_LANES 16
#define SB_MOE_SCALAR_CHUNK 8

static float sb_moe_lane_sum(float *acc) {
    for (int width = SB_MOE_LANES / 2; width >= 1; width /= 2) {
        for (int l = 0; l < width; l++) acc[l] = acc[l] + acc[l + width];
    }
    return acc[0];
}

void sb_moe_rows_scalar(const sb_moe_matrix *w, int64_t row_begin, int64_t row_end, const sb_moe_batch *b,
                        const sb_moe_tables *t) {
    const int64_t k = w->k;
    for (int64_t r = row_begin; r < row_end; r++) {
        const uint8_t *packed = w->packed + r * (k / 2);
        const uint8_t *scales = w->scales + r * (k / 16);
        for (int32_t m0 = 0; m0 < b->m; m0 += SB_MOE_SCALAR_CHUNK) {
            int32_t mc = b->m - m0 < SB_MOE_SCALAR_CHUNK ? b->m - m0 : SB_MOE_SCALAR_CHUNK;
            float acc[SB_MOE_SCALAR_CHUNK][SB_MOE_LANES] = {{0.0f}};
            for (int64_t block = 0; block < k / 16; block++) {
                const float *lut = t->f32 + 16 * scales[block];
                float wv[SB_MOE_LANES];
                for (int l = 0; l < SB_MOE_LANES; l += 2) {
                    uint8_t byte = packed[block * 8 + l / 2];
                    wv[l] = lut[byte & 15];
                    wv[l + 1] = lut[byte >> 4];
                }
                for (int32_t m = 0; m < mc; m++) {
                    const uint16_t *xm = (const uint16_t *)b->rows[m0 + m] + block * 16;
                    for (int l = 0; l < SB_MOE_LANES; l++) acc[m][l] = acc[m][l] + wv[l] * sb_bf16_to_f32(xm[l]);
                }
            }
            for (int32_t m = 0; m < mc; m++) {
                b->out[(m0 + m) * b->out_stride + r] = sb_moe_lane_sum(acc[m]) * w->global_scale;
            }
        }
    }
}

void sb_moe_swiglu_scalar(const float *up, const float *gate, int64_t n, uint16_t *h16, float *h32) {
    for (int64_t i = 0; i < n; i++) {
        uint16_t h = sb_f32_to_bf16(sb_moe_silu(gate[i]) * up[i]);
        h16[i] = h;
        if (h32 != NULL) h32[i] = sb_bf16_to_f32(h);
    }
}
