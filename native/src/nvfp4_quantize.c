/*
 * The exact-math NVFP4 quantiser (docs/kernels-nvfp4.md, Quantiser; ABI in servebench_kernels.h). It is the C
 * twin of the Java Nvfp4Quantizer in its ZERO_SCALE mode and must agree with it bit for bit, so every step is
 * written the way the Java code computes it: fp32 arithmetic in the same order, and the E4M3 rounding done
 * exactly in double precision.
 */
#include <float.h>
#include <math.h>
#include "nvfp4_internal.h"

/* Round to nearest even on the E2M1 grid, saturating at +-6; the sign is kept (a negative value rounding
 * to zero gives 0x8). Thresholds are the midpoints between neighbouring magnitudes; at a midpoint the even
 * magnitude index wins. */
static unsigned e2m1_encode(float value) {
    unsigned sign = signbit(value) ? 8u : 0u;
    float magnitude = fabsf(value);
    unsigned index;
    if (magnitude <= 0.25f) index = 0;
    else if (magnitude < 0.75f) index = 1;
    else if (magnitude <= 1.25f) index = 2;
    else if (magnitude < 1.75f) index = 3;
    else if (magnitude <= 2.5f) index = 4;
    else if (magnitude < 3.5f) index = 5;
    else if (magnitude <= 5.0f) index = 6;
    else index = 7;
    return sign | index;
}

/* Round to nearest even, saturating to 448 (SATFINITE); value is >= 0 and not NaN here. Exact: the
 * magnitude is scaled to units of its binade's spacing (a power of two, so the division is exact in
 * double), rounded half-even, and a carry into the next binade is absorbed by re-deriving the exponent. */
static uint8_t e4m3_encode_nonnegative(float value) {
    double magnitude = (double)value;
    if (magnitude >= 448.0) return 0x7E;
    int exponent = magnitude < 0x1p-6 ? -6 : ilogb(magnitude);
    double ulp = ldexp(1.0, exponent - 3);
    double units = nearbyint(magnitude / ulp);
    double rounded = units * ulp;
    if (rounded >= 448.0) return 0x7E;
    if (rounded == 0.0) return 0x00;
    if (rounded < 0x1p-6) return (uint8_t)units; /* subnormal: units of 2^-9 */
    int e = ilogb(rounded);
    int mantissa = (int)nearbyint((ldexp(rounded, -e) - 1.0) * 8.0);
    return (uint8_t)(((e + 7) << 3) | mantissa);
}

static int64_t scale_offset(int32_t layout, int64_t row, int64_t column, int64_t k) {
    int64_t columns = k / 16;
    if (layout == SB_SCALES_LINEAR) return row * columns + column;
    int64_t k_tiles = (columns + 3) / 4;
    return (row / 128) * k_tiles * 512 + (column / 4) * 512 + (row % 32) * 16 + ((row % 128) / 32) * 4 + (column % 4);
}

int32_t sb_nvfp4_quantize(const float *values, int64_t rows, int64_t k, float global_scale, int32_t layout,
                          uint8_t *packed, uint8_t *scales) {
    if (values == NULL || packed == NULL || scales == NULL) return SB_ERR_ARGUMENT;
    int64_t scale_bytes = sb_nvfp4_scale_bytes(rows, k, layout);
    /* A normal global scale keeps fp32(sf) * global_scale > 0, so no block divides by zero. */
    if (scale_bytes < 0 || !isnormal(global_scale) || global_scale < 0) return SB_ERR_ARGUMENT;
    int64_t count = rows * k;
    for (int64_t i = 0; i < count; i++) {
        if (!isfinite(values[i])) return SB_ERR_ARGUMENT;
    }
    memset(scales, 0, (size_t)scale_bytes); /* swizzle padding must read as zero */
    memset(packed, 0, (size_t)(count / 2));
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t column = 0; column < k / 16; column++) {
            const float *block = values + r * k + column * 16;
            float amax = 0.0f;
            for (int i = 0; i < 16; i++) {
                float magnitude = fabsf(block[i]);
                if (magnitude > amax) amax = magnitude;
            }
            uint8_t sf = e4m3_encode_nonnegative(amax / (6.0f * global_scale));
            scales[scale_offset(layout, r, column, k)] = sf;
            if (sf == 0) continue; /* zero block: SF 0x00 and codes 0, as the GPU kernel writes it */
            float block_scale = nvfp4_e4m3_decode(sf) * global_scale;
            uint8_t *out = packed + (r * k + column * 16) / 2;
            for (int i = 0; i < 16; i += 2) {
                unsigned even = e2m1_encode(block[i] / block_scale);
                unsigned odd = e2m1_encode(block[i + 1] / block_scale);
                out[i / 2] = (uint8_t)(even | (odd << 4));
            }
        }
    }
    return SB_OK;
}
