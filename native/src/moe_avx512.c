/* AVX-512 BF16 tile kernel. Every E2M1 x E4M3 product has at most 6 significant bits, so a weight
 * decodes exactly to bf16 through a 16-entry table per scale byte (one vpermw per 32 elements), and
 * _mm512_dpbf16_ps accumulates weight x activation pairs in fp32; the per-expert global scale is
 * applied once after the reduction. A tile is 4 weight rows x up to 4 tokens (16 accumulators). For
 * experts with more than 4 tokens the first pass stores the decoded 4-row strip in a stack panel and
 * later passes read it from there, so each weight row is decoded once per expert. */
#include "moe_internal.h"

#if SB_MAX_ISA >= 3
#include <immintrin.h>

enum { SB_MOE_DECODE = 0, SB_MOE_DECODE_KEEP = 1, SB_MOE_FROM_PANEL = 2 };

/* Software prefetch distance along each weight row (past a row's end it reaches the next rows, which
 * are read next anyway): with four rows streamed at once the hardware prefetcher alone left ~15% on
 * the table at GLM5_TP8, T = 64 (measured 70 -> 60 ms on one thread; 512 and 2048 were no better). */
#define SB_MOE_PREFETCH_BYTES 1024

#define SB_INLINE static inline __attribute__((always_inline))

/* 32 elements (16 packed bytes, 2 scale bytes) to exact bf16. Dword i of the zero-extended bytes
 * becomes the index pair (low nibble, high nibble) in its two words; bit 4 of a word picks the
 * first or second scale's half of the 32-entry table. */
SB_TARGET_AVX512 SB_INLINE __m512i sb_moe_decode32(const uint8_t *packed, const uint8_t *scales,
                                                   const uint16_t *lut) {
    const __m512i second_block = _mm512_set_epi32(0x00100010, 0x00100010, 0x00100010, 0x00100010, 0x00100010,
                                                  0x00100010, 0x00100010, 0x00100010, 0, 0, 0, 0, 0, 0, 0, 0);
    __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)packed));
    /* (d & 0xF) | (d << 12): low word = low nibble, high word = high nibble (0xEC = (A & C) | B) */
    __m512i index = _mm512_ternarylogic_epi32(d, _mm512_slli_epi32(d, 12), _mm512_set1_epi32(0xF), 0xEC);
    index = _mm512_or_si512(index, second_block);
    __m512i table = _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(lut + ((size_t)scales[0] << 4)))),
        _mm256_loadu_si256((const __m256i *)(lut + ((size_t)scales[1] << 4))), 1);
    return _mm512_permutexvar_epi16(index, table);
}

/* The last 16 elements of a row whose length is an odd multiple of 16; upper half zero. */
SB_TARGET_AVX512 SB_INLINE __m512i sb_moe_decode16(const uint8_t *packed, const uint8_t *scales,
                                                   const uint16_t *lut) {
    __m256i d = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)packed));
    __m256i index = _mm256_or_si256(d, _mm256_slli_epi32(d, 12)); /* ymm vpermw reads 4 index bits */
    __m256i w = _mm256_permutexvar_epi16(index, _mm256_loadu_si256((const __m256i *)(lut + ((size_t)scales[0] << 4))));
    return _mm512_zextsi256_si512(w);
}

/* Sums the 16 lanes of each of 16 accumulators a[4r + m] into lane 4m + r of the result, a tree of
 * depth 4 (pairs of 128-bit quarters, then of 64-bit pairs, then of neighbours). */
SB_TARGET_AVX512 SB_INLINE __m512 sb_moe_reduce16(const __m512 *a) {
    __m512 s1[8], s2[4], s3[2];
    for (int q = 0; q < 8; q++) {
        s1[q] = _mm512_add_ps(_mm512_shuffle_f32x4(a[2 * q], a[2 * q + 1], 0x44),
                              _mm512_shuffle_f32x4(a[2 * q], a[2 * q + 1], 0xEE));
    }
    for (int p = 0; p < 4; p++) {
        s2[p] = _mm512_add_ps(_mm512_shuffle_f32x4(s1[2 * p], s1[2 * p + 1], 0x88),
                              _mm512_shuffle_f32x4(s1[2 * p], s1[2 * p + 1], 0xDD));
    }
    for (int p = 0; p < 2; p++) {
        s3[p] = _mm512_add_ps(_mm512_unpacklo_ps(s2[2 * p], s2[2 * p + 1]),
                              _mm512_unpackhi_ps(s2[2 * p], s2[2 * p + 1]));
    }
    __m512d u = _mm512_castps_pd(s3[0]), v = _mm512_castps_pd(s3[1]);
    return _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(u, v)), _mm512_castpd_ps(_mm512_unpackhi_pd(u, v)));
}

/* One tile: rows r0..r0+3 of the matrix against tokens x[0..mt-1]; lane 4m + r of the result is the
 * dot product of row r and token m (lanes of absent tokens are 0). */
SB_TARGET_AVX512 SB_INLINE __m512 sb_moe_tile(const uint8_t *packed, const uint8_t *scales, int64_t k,
                                              const uint16_t *const *x, const int mt, const int mode,
                                              uint16_t *panel, const uint16_t *lut) {
    __m512 acc[16];
    for (int i = 0; i < 16; i++) acc[i] = _mm512_setzero_ps();
    /* Advancing pointers with the row strides in registers keep the loop within the general registers. */
    const size_t packed_stride = (size_t)k / 2, scale_stride = (size_t)k / 16;
    const uint16_t *xs[4];
    for (int m = 0; m < mt; m++) xs[m] = x[m];
    const uint8_t *p = packed, *s = scales;
    uint16_t *pp = panel;
    int64_t kk = 0;
    for (; kk + 32 <= k; kk += 32, p += 16, s += 2, pp += 32) {
        __m512i w[4];
        for (int r = 0; r < 4; r++) {
            if (mode == SB_MOE_FROM_PANEL) {
                w[r] = _mm512_loadu_si512(pp + r * k);
            } else {
                _mm_prefetch((const char *)(p + r * packed_stride + SB_MOE_PREFETCH_BYTES), _MM_HINT_T0);
                w[r] = sb_moe_decode32(p + r * packed_stride, s + r * scale_stride, lut);
            }
            if (mode == SB_MOE_DECODE_KEEP) _mm512_storeu_si512(pp + r * k, w[r]);
        }
        for (int m = 0; m < mt; m++) {
            __m512i xv = _mm512_loadu_si512(xs[m] + kk);
            for (int r = 0; r < 4; r++) {
                acc[4 * r + m] = _mm512_dpbf16_ps(acc[4 * r + m], (__m512bh)w[r], (__m512bh)xv);
            }
        }
    }
    if (kk < k) {
        __m512i w[4];
        for (int r = 0; r < 4; r++) {
            if (mode == SB_MOE_FROM_PANEL) {
                w[r] = _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)(pp + r * k)));
            } else {
                w[r] = sb_moe_decode16(p + r * packed_stride, s + r * scale_stride, lut);
            }
            if (mode == SB_MOE_DECODE_KEEP) {
                _mm256_storeu_si256((__m256i *)(pp + r * k), _mm512_castsi512_si256(w[r]));
            }
        }
        for (int m = 0; m < mt; m++) {
            __m512i xv = _mm512_maskz_loadu_epi16(0xFFFF, xs[m] + kk);
            for (int r = 0; r < 4; r++) {
                acc[4 * r + m] = _mm512_dpbf16_ps(acc[4 * r + m], (__m512bh)w[r], (__m512bh)xv);
            }
        }
    }
    return sb_moe_reduce16(acc);
}

/* Instantiations with the token count and mode as constants, so the accumulators stay in registers. */
#define SB_MOE_TILE_FN(name, mode)                                                                        \
    SB_TARGET_AVX512 static __m512 name(const uint8_t *packed, const uint8_t *scales, int64_t k,          \
                                        const uint16_t *const *x, int mt, uint16_t *panel,                \
                                        const uint16_t *lut) {                                            \
        switch (mt) {                                                                                     \
        case 1: return sb_moe_tile(packed, scales, k, x, 1, mode, panel, lut);                            \
        case 2: return sb_moe_tile(packed, scales, k, x, 2, mode, panel, lut);                            \
        case 3: return sb_moe_tile(packed, scales, k, x, 3, mode, panel, lut);                            \
        default: return sb_moe_tile(packed, scales, k, x, 4, mode, panel, lut);                           \
        }                                                                                                 \
    }
SB_MOE_TILE_FN(sb_moe_tile_decode, SB_MOE_DECODE)
SB_MOE_TILE_FN(sb_moe_tile_from_panel, SB_MOE_FROM_PANEL)

SB_TARGET_AVX512 static __m512 sb_moe_tile_decode_keep(const uint8_t *packed, const uint8_t *scales, int64_t k,
                                                       const uint16_t *const *x, uint16_t *panel,
                                                       const uint16_t *lut) {
    return sb_moe_tile(packed, scales, k, x, 4, SB_MOE_DECODE_KEEP, panel, lut);
}

SB_TARGET_AVX512 void sb_moe_rows_avx512(const sb_moe_matrix *w, int64_t row_begin, int64_t row_end,
                                         const sb_moe_batch *b, const sb_moe_tables *t) {
    _Alignas(64) uint16_t panel[SB_MOE_TILE_ROWS * SB_MOE_PANEL_K];
    const int64_t k = w->k;
    const int use_panel = b->m > 4 && k <= SB_MOE_PANEL_K;
    const __m512 global = _mm512_set1_ps(w->global_scale);
    for (int64_t r0 = row_begin; r0 < row_end; r0 += SB_MOE_TILE_ROWS) {
        const uint8_t *packed = w->packed + r0 * (k / 2);
        const uint8_t *scales = w->scales + r0 * (k / 16);
        for (int32_t m0 = 0; m0 < b->m; m0 += 4) {
            int mt = b->m - m0 < 4 ? b->m - m0 : 4;
            const uint16_t *const *x = (const uint16_t *const *)b->rows + m0;
            __m512 sums;
            if (!use_panel) sums = sb_moe_tile_decode(packed, scales, k, x, mt, panel, t->bf16);
            else if (m0 == 0) sums = sb_moe_tile_decode_keep(packed, scales, k, x, panel, t->bf16);
            else sums = sb_moe_tile_from_panel(packed, scales, k, x, mt, panel, t->bf16);
            _Alignas(64) float result[16];
            _mm512_store_ps(result, _mm512_mul_ps(sums, global));
            for (int m = 0; m < mt; m++) memcpy(b->out + (m0 + m) * b->out_stride + r0, result + 4 * m, 4 * sizeof(float));
        }
    }
}

/* sb_moe_exp on 8 doubles, operation for operation (max/min keep a NaN in y: they return their
 * second operand when one is NaN; a NaN lane's garbage exponent multiplies a NaN polynomial). */
SB_TARGET_AVX512 SB_INLINE __m512d sb_moe_exp_pd(__m512d y) {
    y = _mm512_max_pd(_mm512_set1_pd(-SB_MOE_EXP_LIMIT), y);
    y = _mm512_min_pd(_mm512_set1_pd(SB_MOE_EXP_LIMIT), y);
    __m512d n = _mm512_roundscale_pd(_mm512_mul_pd(y, _mm512_set1_pd(SB_MOE_INV_LN2)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512d r = _mm512_sub_pd(_mm512_sub_pd(y, _mm512_mul_pd(n, _mm512_set1_pd(SB_MOE_LN2_HI))),
                              _mm512_mul_pd(n, _mm512_set1_pd(SB_MOE_LN2_LO)));
    static const double c[14] = {SB_MOE_C13, SB_MOE_C12, SB_MOE_C11, SB_MOE_C10, SB_MOE_C9, SB_MOE_C8, SB_MOE_C7,
                                 SB_MOE_C6, SB_MOE_C5, SB_MOE_C4, SB_MOE_C3, SB_MOE_C2, SB_MOE_C1, SB_MOE_C0};
    __m512d p = _mm512_set1_pd(c[0]);
    for (int i = 1; i < 14; i++) p = _mm512_add_pd(_mm512_mul_pd(p, r), _mm512_set1_pd(c[i]));
    __m512i bits = _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvtpd_epi64(n), _mm512_set1_epi64(1023)), 52);
    return _mm512_mul_pd(p, _mm512_castsi512_pd(bits));
}

/* sb_moe_silu on 8 floats. */
SB_TARGET_AVX512 SB_INLINE __m256 sb_moe_silu8(__m256 g) {
    __m512d gd = _mm512_cvtps_pd(g);
    __m512d e = sb_moe_exp_pd(_mm512_xor_pd(gd, _mm512_set1_pd(-0.0)));
    return _mm512_cvtpd_ps(_mm512_div_pd(gd, _mm512_add_pd(_mm512_set1_pd(1.0), e)));
}

/* sb_f32_to_bf16 on 16 floats (integer rounding: vcvtneps2bf16 would flush subnormals). */
SB_TARGET_AVX512 SB_INLINE __m256i sb_moe_to_bf16(__m512 a) {
    __m512i bits = _mm512_castps_si512(a);
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7FFF))), 16);
    __mmask16 nan = _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q);
    rounded = _mm512_mask_mov_epi32(rounded, nan, _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40)));
    return _mm512_cvtepi32_epi16(rounded);
}

SB_TARGET_AVX512 void sb_moe_swiglu_avx512(const float *up, const float *gate, int64_t n, uint16_t *h16,
                                           float *h32) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 g = _mm512_loadu_ps(gate + i);
        __m512 s = _mm512_insertf32x8(_mm512_castps256_ps512(sb_moe_silu8(_mm512_castps512_ps256(g))),
                                      sb_moe_silu8(_mm512_extractf32x8_ps(g, 1)), 1);
        __m256i h = sb_moe_to_bf16(_mm512_mul_ps(s, _mm512_loadu_ps(up + i)));
        _mm256_storeu_si256((__m256i *)(h16 + i), h);
        if (h32 != NULL) _mm512_storeu_si512(h32 + i, _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
    if (i < n) sb_moe_swiglu_scalar(up + i, gate + i, n - i, h16 + i, h32 != NULL ? h32 + i : NULL);
}

#else
typedef int sb_moe_avx512_unused; /* ISO C wants a non-empty translation unit */
#endif
