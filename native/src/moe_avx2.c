/* AVX2 + FMA tile kernel: weights decoded to exact fp32 (E2M1 magnitude by vpermps, sign from bit 3,
 * times the block's E4M3 scale), activations converted to fp32 once by the driver, fp32 FMA
 * accumulation. A tile is 2 weight rows x up to 4 tokens (8 accumulators of 8 lanes). */
#include "moe_internal.h"

#if SB_MAX_ISA >= 2
#include <immintrin.h>

#define SB_INLINE static inline __attribute__((always_inline))

/* 8 elements (4 packed bytes) times the block scale. Qword i holds byte i; (q | q << 28) puts the
 * low nibble in dword 2i and the high nibble in dword 2i+1 (bits above 3 are ignored or masked). */
SB_TARGET_AVX2 SB_INLINE __m256 sb_moe_decode8(const uint8_t *packed, __m256 scale) {
    const __m256 magnitudes = _mm256_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f);
    int32_t four;
    memcpy(&four, packed, sizeof four);
    __m256i q = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four));
    __m256i index = _mm256_or_si256(q, _mm256_slli_epi64(q, 28));
    __m256 magnitude = _mm256_permutevar8x32_ps(magnitudes, index);
    __m256 sign = _mm256_castsi256_ps(
        _mm256_and_si256(_mm256_slli_epi32(index, 28), _mm256_set1_epi32((int32_t)0x80000000u)));
    return _mm256_mul_ps(_mm256_xor_ps(magnitude, sign), scale);
}

/* Lane i of the result is the sum of the 8 lanes of v[i] (tree depth 3). */
SB_TARGET_AVX2 SB_INLINE __m256 sb_moe_reduce8(const __m256 *v) {
    __m256 a = _mm256_hadd_ps(_mm256_hadd_ps(v[0], v[1]), _mm256_hadd_ps(v[2], v[3]));
    __m256 b = _mm256_hadd_ps(_mm256_hadd_ps(v[4], v[5]), _mm256_hadd_ps(v[6], v[7]));
    return _mm256_add_ps(_mm256_permute2f128_ps(a, b, 0x20), _mm256_permute2f128_ps(a, b, 0x31));
}

/* Rows r0, r0+1 against tokens x[0..mt-1]; lane 4r + m of the result is row r . token m. */
SB_TARGET_AVX2 SB_INLINE __m256 sb_moe_tile2(const uint8_t *packed, const uint8_t *scales, int64_t k,
                                             const float *const *x, const int mt, const float *scale_table) {
    __m256 acc[8];
    for (int i = 0; i < 8; i++) acc[i] = _mm256_setzero_ps();
    for (int64_t kk = 0; kk < k; kk += 16) {
        __m256 scale[2];
        for (int r = 0; r < 2; r++) scale[r] = _mm256_set1_ps(scale_table[scales[r * (k / 16) + kk / 16]]);
        for (int half = 0; half < 2; half++) {
            __m256 w[2];
            for (int r = 0; r < 2; r++) w[r] = sb_moe_decode8(packed + r * (k / 2) + kk / 2 + 4 * half, scale[r]);
            for (int m = 0; m < mt; m++) {
                __m256 xv = _mm256_loadu_ps(x[m] + kk + 8 * half);
                for (int r = 0; r < 2; r++) acc[4 * r + m] = _mm256_fmadd_ps(w[r], xv, acc[4 * r + m]);
            }
        }
    }
    return sb_moe_reduce8(acc);
}

SB_TARGET_AVX2 static __m256 sb_moe_tile2_any(const uint8_t *packed, const uint8_t *scales, int64_t k,
                                              const float *const *x, int mt, const float *scale_table) {
    switch (mt) {
    case 1: return sb_moe_tile2(packed, scales, k, x, 1, scale_table);
    case 2: return sb_moe_tile2(packed, scales, k, x, 2, scale_table);
    case 3: return sb_moe_tile2(packed, scales, k, x, 3, scale_table);
    default: return sb_moe_tile2(packed, scales, k, x, 4, scale_table);
    }
}

SB_TARGET_AVX2 void sb_moe_rows_avx2(const sb_moe_matrix *w, int64_t row_begin, int64_t row_end,
                                     const sb_moe_batch *b, const sb_moe_tables *t) {
    const int64_t k = w->k;
    const __m256 global = _mm256_set1_ps(w->global_scale);
    for (int64_t r0 = row_begin; r0 < row_end; r0 += 2) {
        for (int32_t m0 = 0; m0 < b->m; m0 += 4) {
            int mt = b->m - m0 < 4 ? b->m - m0 : 4;
            __m256 sums = sb_moe_tile2_any(w->packed + r0 * (k / 2), w->scales + r0 * (k / 16), k,
                                           (const float *const *)b->rows + m0, mt, t->scale);
            float result[8];
            _mm256_storeu_ps(result, _mm256_mul_ps(sums, global));
            for (int m = 0; m < mt; m++) {
                float *o = b->out + (m0 + m) * b->out_stride + r0;
                o[0] = result[m];
                o[1] = result[4 + m];
            }
        }
    }
}

/* sb_moe_exp on 4 doubles. 2^n: the low bits of n + 1.5*2^52 hold n, and adding 1023 before the
 * shift by 52 leaves exactly (n + 1023) << 52 (the constant's bits shift out). */
SB_TARGET_AVX2 SB_INLINE __m256d sb_moe_exp_pd4(__m256d y) {
    y = _mm256_max_pd(_mm256_set1_pd(-SB_MOE_EXP_LIMIT), y);
    y = _mm256_min_pd(_mm256_set1_pd(SB_MOE_EXP_LIMIT), y);
    __m256d n = _mm256_round_pd(_mm256_mul_pd(y, _mm256_set1_pd(SB_MOE_INV_LN2)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256d r = _mm256_sub_pd(_mm256_sub_pd(y, _mm256_mul_pd(n, _mm256_set1_pd(SB_MOE_LN2_HI))),
                              _mm256_mul_pd(n, _mm256_set1_pd(SB_MOE_LN2_LO)));
    static const double c[14] = {SB_MOE_C13, SB_MOE_C12, SB_MOE_C11, SB_MOE_C10, SB_MOE_C9, SB_MOE_C8, SB_MOE_C7,
                                 SB_MOE_C6, SB_MOE_C5, SB_MOE_C4, SB_MOE_C3, SB_MOE_C2, SB_MOE_C1, SB_MOE_C0};
    __m256d p = _mm256_set1_pd(c[0]);
    for (int i = 1; i < 14; i++) p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(c[i]));
    __m256i shifted = _mm256_castpd_si256(_mm256_add_pd(n, _mm256_set1_pd(0x1.8p52)));
    __m256i bits = _mm256_slli_epi64(_mm256_add_epi64(shifted, _mm256_set1_epi64x(1023)), 52);
    return _mm256_mul_pd(p, _mm256_castsi256_pd(bits));
}

SB_TARGET_AVX2 SB_INLINE __m128 sb_moe_silu4(__m128 g) {
    __m256d gd = _mm256_cvtps_pd(g);
    __m256d e = sb_moe_exp_pd4(_mm256_xor_pd(gd, _mm256_set1_pd(-0.0)));
    return _mm256_cvtpd_ps(_mm256_div_pd(gd, _mm256_add_pd(_mm256_set1_pd(1.0), e)));
}

SB_TARGET_AVX2 void sb_moe_swiglu_avx2(const float *up, const float *gate, int64_t n, uint16_t *h16, float *h32) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 g = _mm256_loadu_ps(gate + i);
        __m256 s = _mm256_set_m128(sb_moe_silu4(_mm256_extractf128_ps(g, 1)), sb_moe_silu4(_mm256_castps256_ps128(g)));
        __m256 a = _mm256_mul_ps(s, _mm256_loadu_ps(up + i));
        __m256i bits = _mm256_castps_si256(a);
        __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
        __m256i rounded =
            _mm256_srli_epi32(_mm256_add_epi32(bits, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7FFF))), 16);
        __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(0x40));
        __m256 nan = _mm256_cmp_ps(a, a, _CMP_UNORD_Q);
        rounded = _mm256_castps_si256(
            _mm256_blendv_ps(_mm256_castsi256_ps(rounded), _mm256_castsi256_ps(quiet), nan));
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(rounded, rounded), 0x08);
        _mm_storeu_si128((__m128i *)(h16 + i), _mm256_castsi256_si128(packed));
        if (h32 != NULL) _mm256_storeu_ps(h32 + i, _mm256_castsi256_ps(_mm256_slli_epi32(rounded, 16)));
    }
    if (i < n) sb_moe_swiglu_scalar(up + i, gate + i, n - i, h16 + i, h32 != NULL ? h32 + i : NULL);
}

#else
typedef int sb_moe_avx2_unused; /* ISO C wants a non-empty translation unit */
#endif
