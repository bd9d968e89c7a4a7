/*
 * sb_ar_sum in three bit-identical forms. The adds are plain IEEE fp32 adds in the documented order in
 * every path. bf16 rounding is the integer arithmetic of sb_f32_to_bf16 (bits + 0x7fff + lsb) or, where
 * provably equal, VCVTNE2PS2BF16: that instruction flushes subnormals to zero, which the
 * scalar path and the Java reference do not (the AVX-512 path uses it only for blocks without one).
 */
#include "sb_internal.h"
#include "allreduce_sum.h"
#if SB_MAX_ISA >= 2
#include <immintrin.h>
#endif

/* Portable C in blocks: one pass per source over a small fp32 accumulator keeps every loop simple
 * enough for the compiler to vectorise with the baseline instruction set, in the same order per element. */
static void sum_scalar(const sb_ar_sum_job *job, int64_t begin, int64_t end) {
    enum { BLOCK = 512 };
    float acc[BLOCK];
    for (int64_t base = begin; base < end; base += BLOCK) {
        int n = end - base < BLOCK ? (int)(end - base) : BLOCK;
        int first = 1;
        if (job->partial != NULL) {
            memcpy(acc, job->partial + base, (size_t)n * sizeof(float));
            first = 0;
        } else {
            const uint16_t *src = job->source[0] + base;
            for (int i = 0; i < n; i++) acc[i] = sb_bf16_to_f32(src[i]);
        }
        for (int k = first; k < job->sources; k++) {
            const uint16_t *src = job->source[k] + base;
            for (int i = 0; i < n; i++) acc[i] += sb_bf16_to_f32(src[i]);
        }
        if (job->out32 != NULL) memcpy(job->out32 + base, acc, (size_t)n * sizeof(float));
        for (int j = 0; j < 2; j++) {
            uint16_t *dst = job->out16[j];
            if (dst == NULL) continue;
            for (int i = 0; i < n; i++) dst[base + i] = sb_f32_to_bf16(acc[i]);
        }
    }
}

#if SB_MAX_ISA >= 2
SB_TARGET_AVX2 static inline __m256 avx2_load_bf16(const uint16_t *p) {
    __m128i half = _mm_loadu_si128((const __m128i *)p);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(half), 16));
}

/* The integer rounding of sb_f32_to_bf16, 8 lanes, as 32-bit lanes holding the bf16 pattern. */
SB_TARGET_AVX2 static inline __m256i avx2_round_bf16(__m256 value) {
    __m256i bits = _mm256_castps_si256(value);
    __m256i high = _mm256_srli_epi32(bits, 16);
    __m256i lsb = _mm256_and_si256(high, _mm256_set1_epi32(1));
    __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(bits, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
    __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(bits, _mm256_set1_epi32(0x7fffffff)),
                                     _mm256_set1_epi32(0x7f800000));
    return _mm256_blendv_epi8(rounded, _mm256_or_si256(high, _mm256_set1_epi32(0x40)), nan);
}

SB_TARGET_AVX2 static inline __m256 avx2_first(const sb_ar_sum_job *job, int64_t i) {
    return job->partial != NULL ? _mm256_loadu_ps(job->partial + i) : avx2_load_bf16(job->source[0] + i);
}

SB_TARGET_AVX2 static void sum_avx2(const sb_ar_sum_job *job, int64_t begin, int64_t end) {
    int first = job->partial != NULL ? 0 : 1;
    int64_t i = begin;
    for (; i + 16 <= end; i += 16) {
        __m256 low = avx2_first(job, i), high = avx2_first(job, i + 8);
        for (int k = first; k < job->sources; k++) {
            low = _mm256_add_ps(low, avx2_load_bf16(job->source[k] + i));
            high = _mm256_add_ps(high, avx2_load_bf16(job->source[k] + i + 8));
        }
        if (job->out32 != NULL) {
            _mm256_storeu_ps(job->out32 + i, low);
            _mm256_storeu_ps(job->out32 + i + 8, high);
        }
        /* Lanes are <= 0xffff, so the saturating pack is exact; it interleaves 128-bit halves, the
         * permute restores element order. */
        __m256i rounded = _mm256_permute4x64_epi64(_mm256_packus_epi32(avx2_round_bf16(low), avx2_round_bf16(high)), 0xd8);
        if (job->out16[0] != NULL) _mm256_storeu_si256((__m256i *)(job->out16[0] + i), rounded);
        if (job->out16[1] != NULL) _mm256_storeu_si256((__m256i *)(job->out16[1] + i), rounded);
    }
    sum_scalar(job, i, end);
}
#endif

#if SB_MAX_ISA >= 3
SB_TARGET_AVX512 static inline __m512 avx512_load_bf16(const uint16_t *p, __mmask16 lanes) {
    __m256i half = _mm256_maskz_loadu_epi16(lanes, p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(half), 16));
}

/* The integer rounding of sb_f32_to_bf16, 16 lanes. */
SB_TARGET_AVX512 static inline __m256i avx512_round_bf16(__m512 value) {
    __m512i bits = _mm512_castps_si512(value);
    __m512i high = _mm512_srli_epi32(bits, 16);
    __m512i lsb = _mm512_and_si512(high, _mm512_set1_epi32(1));
    __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
    __mmask16 nan = _mm512_fpclass_ps_mask(value, 0x81); /* quiet or signalling NaN */
    return _mm512_cvtepi32_epi16(_mm512_mask_or_epi32(rounded, nan, high, _mm512_set1_epi32(0x40)));
}

/* 32 lanes, element order kept. VCVTNE2PS2BF16 rounds exactly like sb_f32_to_bf16 (RNE, NaN made quiet
 * by setting bit 6) except that it flushes subnormal inputs to zero, so blocks holding a subnormal sum
 * take the integer path (fpclass 0x20 = denormal). */
SB_TARGET_AVX512 static inline __m512i avx512_round_bf16_x32(__m512 low, __m512 high) {
    if ((_mm512_fpclass_ps_mask(low, 0x20) | _mm512_fpclass_ps_mask(high, 0x20)) == 0) {
        return (__m512i)_mm512_cvtne2ps_pbh(high, low);
    }
    return _mm512_inserti64x4(_mm512_castsi256_si512(avx512_round_bf16(low)), avx512_round_bf16(high), 1);
}

SB_TARGET_AVX512 static inline __m512 avx512_first(const sb_ar_sum_job *job, int64_t i, __mmask16 lanes) {
    return job->partial != NULL ? _mm512_maskz_loadu_ps(lanes, job->partial + i)
                                : avx512_load_bf16(job->source[0] + i, lanes);
}

SB_TARGET_AVX512 static inline void avx512_sum16(const sb_ar_sum_job *job, int first, int64_t i, __mmask16 lanes) {
    __m512 acc = avx512_first(job, i, lanes);
    for (int k = first; k < job->sources; k++) acc = _mm512_add_ps(acc, avx512_load_bf16(job->source[k] + i, lanes));
    if (job->out32 != NULL) _mm512_mask_storeu_ps(job->out32 + i, lanes, acc);
    __m256i rounded = avx512_round_bf16(acc);
    if (job->out16[0] != NULL) _mm256_mask_storeu_epi16(job->out16[0] + i, lanes, rounded);
    if (job->out16[1] != NULL) _mm256_mask_storeu_epi16(job->out16[1] + i, lanes, rounded);
}

SB_TARGET_AVX512 static void sum_avx512(const sb_ar_sum_job *job, int64_t begin, int64_t end) {
    const __mmask16 all = (__mmask16)0xffff;
    int first = job->partial != NULL ? 0 : 1;
    int64_t i = begin;
    for (; i + 32 <= end; i += 32) {
        __m512 low = avx512_first(job, i, all), high = avx512_first(job, i + 16, all);
        for (int k = first; k < job->sources; k++) {
            low = _mm512_add_ps(low, avx512_load_bf16(job->source[k] + i, all));
            high = _mm512_add_ps(high, avx512_load_bf16(job->source[k] + i + 16, all));
        }
        if (job->out32 != NULL) {
            _mm512_storeu_ps(job->out32 + i, low);
            _mm512_storeu_ps(job->out32 + i + 16, high);
        }
        __m512i rounded = avx512_round_bf16_x32(low, high);
        if (job->out16[0] != NULL) _mm512_storeu_si512(job->out16[0] + i, rounded);
        if (job->out16[1] != NULL) _mm512_storeu_si512(job->out16[1] + i, rounded);
    }
    for (; i < end; i += 16) {
        int64_t left = end - i;
        avx512_sum16(job, first, i, left >= 16 ? all : (__mmask16)((1u << left) - 1u));
    }
}
#endif

void sb_ar_sum(int isa, const sb_ar_sum_job *job, int64_t begin, int64_t end) {
    if (begin >= end) return;
#if SB_MAX_ISA >= 3
    if (isa >= SB_ISA_AVX512BF16) {
        sum_avx512(job, begin, end);
        return;
    }
#endif
#if SB_MAX_ISA >= 2
    if (isa >= SB_ISA_AVX2) {
        sum_avx2(job, begin, end);
        return;
    }
#endif
    (void)isa;
    sum_scalar(job, begin, end);
}
