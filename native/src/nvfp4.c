/*
 * NVFP4 dequantisation (docs/kernels-nvfp4.md, ABI in servebench_kernels.h); the quantiser is in
 * nvfp4_quantize.c.
 *
 * Every path computes the same numbers. The scalar path evaluates (E2M1(code) * E4M3(scale)) * global_scale
 * element by element. The SIMD paths look the products up: before the parallel region the caller tabulates
 * value[scale][code] for all 256 x 16 (scale, code) pairs with the same IEEE multiplies in the same order,
 * so the row loops only permute table entries and cannot round differently (they never multiply).
 */
#include <math.h>
#include <omp.h>
#include <stdalign.h>
#include "nvfp4_internal.h"

#if SB_MAX_ISA >= 2
#include <immintrin.h>
#endif

static const float E2M1_VALUES[16] = {
    0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
    -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f,
};

float nvfp4_e2m1_decode(unsigned code) { return E2M1_VALUES[code & 0xFu]; }

float nvfp4_e4m3_decode(uint8_t b) {
    uint32_t exponent = (b >> 3) & 0xFu, mantissa = b & 7u;
    if (exponent == 15 && mantissa == 7) return NAN;
    float magnitude;
    if (exponent == 0) {
        magnitude = (float)mantissa * 0x1p-9f; /* subnormal, exact */
    } else {
        /* 1.mmm * 2^(exponent - 7): the same fields in fp32 (bias 127), exact and without a libm call. */
        uint32_t bits = ((exponent + 120u) << 23) | (mantissa << 20);
        memcpy(&magnitude, &bits, sizeof magnitude);
    }
    return (b & 0x80u) ? -magnitude : magnitude;
}

/* ---- Shapes and layouts ------------------------------------------------------------------------ */

/* rows >= 1, k a positive multiple of 16, and rows * k * 4 (the fp32 output) representable. */
int nvfp4_valid_shape(int64_t rows, int64_t k) {
    if (rows < 1 || k < 16 || k % 16 != 0) return 0;
    return rows <= INT64_MAX / 4 / k;
}

static int64_t round_up(int64_t value, int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

int64_t sb_nvfp4_scale_bytes(int64_t rows, int64_t k, int32_t layout) {
    if (!nvfp4_valid_shape(rows, k)) return -1;
    switch (layout) {
    case SB_SCALES_LINEAR: return rows * (k / 16);
    case SB_SCALES_SWIZZLED_128X4: return round_up(rows, 128) * round_up(k / 16, 4);
    default: return -1;
    }
}

/* Where row `row`'s scales start, and how far apart its groups of 4 scale columns lie: in both layouts the
 * scales of blocks 4g..4g+3 of one row are 4 consecutive bytes (docs/kernels-nvfp4.md, Scale layouts). */
static const uint8_t *row_scales(const uint8_t *scales, int32_t layout, int64_t row, int64_t k,
                                 int64_t *group_stride) {
    int64_t columns = k / 16;
    if (layout == SB_SCALES_LINEAR) {
        *group_stride = 4;
        return scales + row * columns;
    }
    int64_t k_tiles = round_up(columns, 4) / 4;
    *group_stride = 512;
    return scales + (row / 128) * k_tiles * 512 + (row % 32) * 16 + ((row % 128) / 32) * 4;
}

static inline uint8_t block_scale(const uint8_t *row_sf, int64_t group_stride, int64_t block) {
    return row_sf[(block >> 2) * group_stride + (block & 3)];
}

/* ---- Scalar path: the definition, one element at a time ---------------------------------------- */

/* The product in the documented order. A NaN (scale 0x7F/0xFF or a NaN global scale) comes out as the one
 * quiet NaN 0x7FC00000: the sign and payload of a NaN product are not specified by IEEE 754 and did differ
 * between scalar and vectorised builds, while every variant must agree bit for bit. */
static inline float dequant_value(unsigned code, float scale, float global_scale) {
    float value = (nvfp4_e2m1_decode(code) * scale) * global_scale;
    return isnan(value) ? NAN : value;
}

static inline float element(const uint8_t *packed, int64_t i, float scale, float global_scale) {
    unsigned code = (i & 1) ? packed[i / 2] >> 4 : packed[i / 2] & 0xFu;
    return dequant_value(code, scale, global_scale);
}

static void row_scalar_f32(const uint8_t *packed, const uint8_t *row_sf, int64_t group_stride, int64_t k,
                           float global_scale, float *out) {
    for (int64_t b = 0; b < k / 16; b++) {
        float scale = nvfp4_e4m3_decode(block_scale(row_sf, group_stride, b));
        for (int64_t i = b * 16; i < b * 16 + 16; i++) out[i] = element(packed, i, scale, global_scale);
    }
}

static void row_scalar_bf16(const uint8_t *packed, const uint8_t *row_sf, int64_t group_stride, int64_t k,
                            float global_scale, uint16_t *out) {
    for (int64_t b = 0; b < k / 16; b++) {
        float scale = nvfp4_e4m3_decode(block_scale(row_sf, group_stride, b));
        for (int64_t i = b * 16; i < b * 16 + 16; i++) out[i] = sb_f32_to_bf16(element(packed, i, scale, global_scale));
    }
}

/* ---- Tables for the SIMD paths ------------------------------------------------------------------ */
#if SB_MAX_ISA >= 2

/*
 * value[scale][code] for all 256 x 16 pairs, 8 codes per vector, as fp32 (f32), bf16 (bf16) and as the bf16
 * split into a low-byte and a high-byte plane (planes); NULL tables are skipped. Each entry is exactly
 * dequant_value(code, scale, global_scale): vector multiplies are the same IEEE operations in the same
 * order, NaN lanes become the same quiet NaN, and the bf16 rounding is sb_f32_to_bf16's add-and-shift (its
 * NaN branch is not needed: 0x7FC00000 rounds to 0x7FC0 either way). AVX2 suffices for this one-off
 * 4096-entry job on both SIMD paths; done with scalar code it cost more than the whole dequant of a
 * 64 x 1024 tensor.
 */
SB_TARGET_AVX2 static void build_tables(float global_scale, float (*f32)[16], uint16_t (*bf16)[16],
                                        uint8_t (*planes)[2][16]) {
    const __m256 global = _mm256_set1_ps(global_scale);
    const __m256 quiet_nan = _mm256_set1_ps(NAN);
    const __m256i round_bias = _mm256_set1_epi32(0x7FFF), one = _mm256_set1_epi32(1);
    /* Within each 128-bit lane: the 8 low bytes of the lane's 8 values, then their 8 high bytes. */
    const __m256i split_bytes = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15,
                                                 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    for (int s = 0; s < 256; s++) {
        __m256 scale = _mm256_set1_ps(nvfp4_e4m3_decode((uint8_t)s));
        __m256 half[2];
        __m256i rounded[2];
        for (int h = 0; h < 2; h++) {
            __m256 value = _mm256_mul_ps(_mm256_mul_ps(_mm256_loadu_ps(E2M1_VALUES + 8 * h), scale), global);
            half[h] = _mm256_blendv_ps(value, quiet_nan, _mm256_cmp_ps(value, value, _CMP_UNORD_Q));
            __m256i bits = _mm256_castps_si256(half[h]);
            __m256i odd = _mm256_and_si256(_mm256_srli_epi32(bits, 16), one);
            rounded[h] = _mm256_srli_epi32(_mm256_add_epi32(bits, _mm256_add_epi32(round_bias, odd)), 16);
        }
        if (f32 != NULL) {
            _mm256_store_ps(f32[s], half[0]);
            _mm256_store_ps(f32[s] + 8, half[1]);
        }
        /* packus interleaves 128-bit lanes (values 0-3, 8-11, 4-7, 12-15); the permute restores the order. */
        __m256i values = _mm256_permute4x64_epi64(_mm256_packus_epi32(rounded[0], rounded[1]), 0xD8);
        if (bf16 != NULL) _mm256_store_si256((__m256i *)bf16[s], values);
        if (planes != NULL) {
            /* lanes become [low bytes 0-7 | high bytes 0-7], [low bytes 8-15 | high bytes 8-15]; reorder the
             * 64-bit quarters to low bytes 0-15, high bytes 0-15. */
            __m256i split = _mm256_shuffle_epi8(values, split_bytes);
            _mm256_store_si256((__m256i *)planes[s], _mm256_permute4x64_epi64(split, 0xD8));
        }
    }
}

/* Outputs at least this large are written with non-temporal stores: they would only evict the inputs from
 * the caches (16 MiB, half this machine's L3), and streaming avoids reading each output line before
 * writing it, which is also why glibc's memcpy streams large copies. Smaller outputs stay in cache for
 * whoever reads them next. */
#define STREAM_MIN_BYTES ((int64_t)16 << 20)

/* Non-temporal stores need every vector store aligned. An fp32 row is a multiple of 64 bytes, so the base
 * address decides for the whole tensor; a bf16 row is a multiple of 32 bytes, and the AVX-512 path stores
 * 64 bytes (two blocks) at a time, so there every row also needs an even number of blocks. */
static int use_streaming_stores(const void *out, int64_t out_bytes, int64_t store_bytes, int64_t row_bytes) {
    return out_bytes >= STREAM_MIN_BYTES && (uintptr_t)out % (uintptr_t)store_bytes == 0
           && row_bytes % store_bytes == 0;
}
#endif

/* ---- AVX-512 ------------------------------------------------------------------------------------ */
#if SB_MAX_ISA >= 3

/* The 16 codes of one block (8 packed bytes, low nibble first) as bytes in element order. */
SB_TARGET_AVX512 static inline __m128i codes_of_block(__m128i eight_bytes) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i low = _mm_and_si128(eight_bytes, nibble);
    __m128i high = _mm_and_si128(_mm_srli_epi16(eight_bytes, 4), nibble);
    return _mm_unpacklo_epi8(low, high);
}

SB_TARGET_AVX512 static void row_avx512_f32(const uint8_t *packed, const uint8_t *row_sf, int64_t group_stride,
                                            int64_t blocks, const float (*table)[16], float *out, int stream) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    int64_t b = 0;
    for (; b + 2 <= blocks; b += 2) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(packed + b * 8));
        __m128i low = _mm_and_si128(bytes, nibble);
        __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble);
        __m512i codes0 = _mm512_cvtepu8_epi32(_mm_unpacklo_epi8(low, high));
        __m512i codes1 = _mm512_cvtepu8_epi32(_mm_unpackhi_epi8(low, high));
        __m512 v0 = _mm512_permutexvar_ps(codes0, _mm512_load_ps(table[block_scale(row_sf, group_stride, b)]));
        __m512 v1 = _mm512_permutexvar_ps(codes1, _mm512_load_ps(table[block_scale(row_sf, group_stride, b + 1)]));
        if (stream) {
            _mm512_stream_ps(out + b * 16, v0);
            _mm512_stream_ps(out + b * 16 + 16, v1);
        } else {
            _mm512_storeu_ps(out + b * 16, v0);
            _mm512_storeu_ps(out + b * 16 + 16, v1);
        }
    }
    if (b < blocks) {
        __m512i codes = _mm512_cvtepu8_epi32(codes_of_block(_mm_loadl_epi64((const __m128i *)(packed + b * 8))));
        __m512 v = _mm512_permutexvar_ps(codes, _mm512_load_ps(table[block_scale(row_sf, group_stride, b)]));
        _mm512_storeu_ps(out + b * 16, v);
    }
}

/* bf16: two blocks per 64-byte store. The two blocks' 16-entry bf16 rows form one 32-entry table and the
 * second block's codes are offset by 16 to select from its half. */
SB_TARGET_AVX512 static void row_avx512_bf16(const uint8_t *packed, const uint8_t *row_sf, int64_t group_stride,
                                             int64_t blocks, const uint16_t (*table)[16], uint16_t *out,
                                             int stream) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i second_half = _mm_set1_epi8(16);
    int64_t b = 0;
    for (; b + 2 <= blocks; b += 2) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(packed + b * 8));
        __m128i low = _mm_and_si128(bytes, nibble);
        __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble);
        __m128i codes0 = _mm_unpacklo_epi8(low, high);
        __m128i codes1 = _mm_or_si128(_mm_unpackhi_epi8(low, high), second_half);
        __m512i index = _mm512_cvtepu8_epi16(_mm256_inserti128_si256(_mm256_castsi128_si256(codes0), codes1, 1));
        __m256i row0 = _mm256_load_si256((const __m256i *)table[block_scale(row_sf, group_stride, b)]);
        __m256i row1 = _mm256_load_si256((const __m256i *)table[block_scale(row_sf, group_stride, b + 1)]);
        __m512i values = _mm512_permutexvar_epi16(index, _mm512_inserti64x4(_mm512_castsi256_si512(row0), row1, 1));
        if (stream) _mm512_stream_si512((void *)(out + b * 16), values);
        else _mm512_storeu_si512((void *)(out + b * 16), values);
    }
    if (b < blocks) {
        __m256i codes = _mm256_cvtepu8_epi16(codes_of_block(_mm_loadl_epi64((const __m128i *)(packed + b * 8))));
        __m256i row = _mm256_load_si256((const __m256i *)table[block_scale(row_sf, group_stride, b)]);
        _mm256_storeu_si256((__m256i *)(out + b * 16), _mm256_permutexvar_epi16(codes, row));
    }
}
#endif

/* ---- AVX2 --------------------------------------------------------------------------------------- */
#if SB_MAX_ISA >= 2

/* vpermps selects among 8 entries with the low 3 bits of the code: look the magnitude up in the positive
 * and the negative half of the block's row and let the sign bit (bit 3, shifted to bit 31) choose. */
SB_TARGET_AVX2 static inline __m256 lookup8_avx2(__m256i codes, const float *row) {
    __m256 positive = _mm256_permutevar8x32_ps(_mm256_load_ps(row), codes);
    __m256 negative = _mm256_permutevar8x32_ps(_mm256_load_ps(row + 8), codes);
    return _mm256_blendv_ps(positive, negative, _mm256_castsi256_ps(_mm256_slli_epi32(codes, 28)));
}

SB_TARGET_AVX2 static inline __m128i codes_of_block_avx2(const uint8_t *eight) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i bytes = _mm_loadl_epi64((const __m128i *)eight);
    return _mm_unpacklo_epi8(_mm_and_si128(bytes, nibble), _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble));
}

SB_TARGET_AVX2 static void row_avx2_f32(const uint8_t *packed, const uint8_t *row_sf, int64_t group_stride,
                                        int64_t blocks, const float (*table)[16], float *out, int stream) {
    for (int64_t b = 0; b < blocks; b++) {
        __m128i codes = codes_of_block_avx2(packed + b * 8);
        const float *row = table[block_scale(row_sf, group_stride, b)];
        __m256 v0 = lookup8_avx2(_mm256_cvtepu8_epi32(codes), row);
        __m256 v1 = lookup8_avx2(_mm256_cvtepu8_epi32(_mm_srli_si128(codes, 8)), row);
        if (stream) {
            _mm256_stream_ps(out + b * 16, v0);
            _mm256_stream_ps(out + b * 16 + 8, v1);
        } else {
            _mm256_storeu_ps(out + b * 16, v0);
            _mm256_storeu_ps(out + b * 16 + 8, v1);
        }
    }
}

/* bf16: vpshufb looks up 16 byte-sized entries, so each row's bf16 values are kept as a low-byte and a
 * high-byte plane; the looked-up planes are interleaved back into 16-bit values. */
SB_TARGET_AVX2 static void row_avx2_bf16(const uint8_t *packed, const uint8_t *row_sf, int64_t group_stride,
                                         int64_t blocks, const uint8_t (*planes)[2][16], uint16_t *out, int stream) {
    for (int64_t b = 0; b < blocks; b++) {
        __m128i codes = codes_of_block_avx2(packed + b * 8);
        const uint8_t (*plane)[16] = planes[block_scale(row_sf, group_stride, b)];
        __m128i low = _mm_shuffle_epi8(_mm_load_si128((const __m128i *)plane[0]), codes);
        __m128i high = _mm_shuffle_epi8(_mm_load_si128((const __m128i *)plane[1]), codes);
        __m256i values = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi8(low, high)),
                                                 _mm_unpackhi_epi8(low, high), 1);
        if (stream) _mm256_stream_si256((__m256i *)(out + b * 16), values);
        else _mm256_storeu_si256((__m256i *)(out + b * 16), values);
    }
}
#endif

/* ---- Entry points ------------------------------------------------------------------------------- */

static int valid_dequant(const uint8_t *packed, const uint8_t *scales, int32_t layout, int64_t rows, int64_t k,
                         const void *out, size_t element_bytes, int32_t threads) {
    if (packed == NULL || scales == NULL || out == NULL || threads < 1) return 0;
    if ((uintptr_t)out % element_bytes != 0) return 0;
    return sb_nvfp4_scale_bytes(rows, k, layout) > 0;
}

static int32_t dequant_f32(const uint8_t *packed, const uint8_t *scales, int32_t layout, float global_scale,
                           int64_t rows, int64_t k, float *out, int32_t threads) {
    if (!valid_dequant(packed, scales, layout, rows, k, out, sizeof(float), threads)) return SB_ERR_ARGUMENT;
    int isa = sb_isa();
#if SB_MAX_ISA >= 2
    int stream = use_streaming_stores(out, rows * k * 4, isa == SB_ISA_AVX2 ? 32 : 64, k * 4);
    alignas(64) float table[256][16];
    if (isa != SB_ISA_SCALAR) build_tables(global_scale, table, NULL, NULL);
#endif
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        int64_t group_stride;
        const uint8_t *row_sf = row_scales(scales, layout, r, k, &group_stride);
        const uint8_t *row_packed = packed + r * (k / 2);
        float *row_out = out + r * k;
        switch (isa) {
#if SB_MAX_ISA >= 3
        case SB_ISA_AVX512BF16:
            row_avx512_f32(row_packed, row_sf, group_stride, k / 16, (const float (*)[16])table, row_out, stream);
            break;
#endif
#if SB_MAX_ISA >= 2
        case SB_ISA_AVX2:
            row_avx2_f32(row_packed, row_sf, group_stride, k / 16, (const float (*)[16])table, row_out, stream);
            break;
#endif
        default: row_scalar_f32(row_packed, row_sf, group_stride, k, global_scale, row_out); break;
        }
    }
#if SB_MAX_ISA >= 2
    /* Streaming stores are weakly ordered: make them visible before the caller reads the output. */
    if (stream) _mm_sfence();
#endif
    return SB_OK;
}

static int32_t dequant_bf16(const uint8_t *packed, const uint8_t *scales, int32_t layout, float global_scale,
                            int64_t rows, int64_t k, uint16_t *out, int32_t threads) {
    if (!valid_dequant(packed, scales, layout, rows, k, out, sizeof(uint16_t), threads)) return SB_ERR_ARGUMENT;
    int isa = sb_isa();
#if SB_MAX_ISA >= 2
    int stream = use_streaming_stores(out, rows * k * 2, isa == SB_ISA_AVX2 ? 32 : 64, k * 2);
    /* values[scale][code] as bf16 for AVX-512 (vpermw looks up 16-bit entries), or split into byte planes
     * for AVX2 (vpshufb looks up bytes). */
    alignas(64) uint16_t values[256][16];
    alignas(64) uint8_t planes[256][2][16];
    if (isa == SB_ISA_AVX2) build_tables(global_scale, NULL, NULL, planes);
    else if (isa != SB_ISA_SCALAR) build_tables(global_scale, NULL, values, NULL);
#endif
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        int64_t group_stride;
        const uint8_t *row_sf = row_scales(scales, layout, r, k, &group_stride);
        const uint8_t *row_packed = packed + r * (k / 2);
        uint16_t *row_out = out + r * k;
        switch (isa) {
#if SB_MAX_ISA >= 3
        case SB_ISA_AVX512BF16:
            row_avx512_bf16(row_packed, row_sf, group_stride, k / 16, (const uint16_t (*)[16])values, row_out,
                            stream);
            break;
#endif
#if SB_MAX_ISA >= 2
        case SB_ISA_AVX2:
            row_avx2_bf16(row_packed, row_sf, group_stride, k / 16, (const uint8_t (*)[2][16])planes, row_out,
                          stream);
            break;
#endif
        default: row_scalar_bf16(row_packed, row_sf, group_stride, k, global_scale, row_out); break;
        }
    }
#if SB_MAX_ISA >= 2
    if (stream) _mm_sfence();
#endif
    return SB_OK;
}

int32_t sb_nvfp4_dequant_f32(const uint8_t *packed, const uint8_t *scales, int32_t layout, float global_scale,
                             int64_t rows, int64_t k, float *out, int32_t threads) {
    int64_t start = sb_slowdown_start();
    return sb_slowdown_finish(start, dequant_f32(packed, scales, layout, global_scale, rows, k, out, threads));
}

int32_t sb_nvfp4_dequant_bf16(const uint8_t *packed, const uint8_t *scales, int32_t layout, float global_scale,
                              int64_t rows, int64_t k, uint16_t *out, int32_t threads) {
    int64_t start = sb_slowdown_start();
    return sb_slowdown_finish(start, dequant_bf16(packed, scales, layout, global_scale, rows, k, out, threads));
}
