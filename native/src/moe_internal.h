/* MoE kernels: the shared math (exp, sigmoid, silu) and the interface between the driver (moe.c) and
 * the per-ISA tile kernels (moe_scalar.c, moe_avx2.c, moe_avx512.c). */
#ifndef SB_MOE_INTERNAL_H
#define SB_MOE_INTERNAL_H

#include <math.h>
#include "sb_internal.h"

/* Routing keeps one score per expert on the stack; no MoE model has more than a few hundred. */
#define SB_MOE_MAX_EXPERTS 4096

/* Rows of one weight matrix a tile kernel computes together, and activation rows it streams per pass. */
#define SB_MOE_TILE_ROWS 4
/* The AVX-512 kernel decodes a 4-row strip into a stack panel once and reuses it for every further
 * chunk of 4 tokens; rows longer than this are decoded again per chunk instead (64 KiB of stack). */
#define SB_MOE_PANEL_K 8192

/*
 * The double-precision exp shared bit for bit with the Java reference (RouterMath.exp): every step
 * is one IEEE operation and the build uses -ffp-contract=off, so no step is fused. Range reduction
 * y = n*ln2 + r with n = rint(y/ln2) (ties to even) and ln2 split into a head with 20 trailing zero
 * bits (n*LN2_HI is exact for |n| < 2^20) and a tail; exp(r) for |r| <= ln2/2 by the Taylor
 * polynomial of degree 13 in Horner form (truncation < 2^-57 relative); 2^n built from exponent bits.
 * y is clamped to [-708, 708] so 2^n stays a normal double (n in [-1021, 1021]).
 */
#define SB_MOE_EXP_LIMIT 708.0
#define SB_MOE_INV_LN2 0x1.71547652b82fep+0
#define SB_MOE_LN2_HI 0x1.62e42fee00000p-1
#define SB_MOE_LN2_LO 0x1.a39ef35793c76p-33
#define SB_MOE_C13 0x1.6124613a86d09p-33
#define SB_MOE_C12 0x1.1eed8eff8d898p-29
#define SB_MOE_C11 0x1.ae64567f544e4p-26
#define SB_MOE_C10 0x1.27e4fb7789f5cp-22
#define SB_MOE_C9 0x1.71de3a556c734p-19
#define SB_MOE_C8 0x1.a01a01a01a01ap-16
#define SB_MOE_C7 0x1.a01a01a01a01ap-13
#define SB_MOE_C6 0x1.6c16c16c16c17p-10
#define SB_MOE_C5 0x1.1111111111111p-7
#define SB_MOE_C4 0x1.5555555555555p-5
#define SB_MOE_C3 0x1.5555555555555p-3
#define SB_MOE_C2 0x1.0000000000000p-1
#define SB_MOE_C1 0x1.0000000000000p+0
#define SB_MOE_C0 0x1.0000000000000p+0

static inline double sb_moe_exp(double y) {
    if (y != y) return y; /* NaN: the integer conversion below would be undefined */
    if (y > SB_MOE_EXP_LIMIT) y = SB_MOE_EXP_LIMIT;
    if (y < -SB_MOE_EXP_LIMIT) y = -SB_MOE_EXP_LIMIT;
    double n = rint(y * SB_MOE_INV_LN2);
    double r = (y - n * SB_MOE_LN2_HI) - n * SB_MOE_LN2_LO;
    double p = SB_MOE_C13;
    p = p * r + SB_MOE_C12;
    p = p * r + SB_MOE_C11;
    p = p * r + SB_MOE_C10;
    p = p * r + SB_MOE_C9;
    p = p * r + SB_MOE_C8;
    p = p * r + SB_MOE_C7;
    p = p * r + SB_MOE_C6;
    p = p * r + SB_MOE_C5;
    p = p * r + SB_MOE_C4;
    p = p * r + SB_MOE_C3;
    p = p * r + SB_MOE_C2;
    p = p * r + SB_MOE_C1;
    p = p * r + SB_MOE_C0;
    uint64_t bits = (uint64_t)((int64_t)n + 1023) << 52;
    double scale;
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

/* Router score: (float)(1 / (1 + exp(-x))) in double. */
static inline float sb_moe_sigmoid(float x) {
    return (float)(1.0 / (1.0 + sb_moe_exp(-(double)x)));
}

/* SwiGLU's silu(g) = g * sigmoid(g), evaluated as (float)(g / (1 + exp(-g))) in double. */
static inline float sb_moe_silu(float g) {
    return (float)((double)g / (1.0 + sb_moe_exp(-(double)g)));
}

/* One weight matrix of one expert seen by a tile kernel: `rows` rows of K NVFP4 elements. */
typedef struct {
    const uint8_t *packed; /* row 0; row r at packed + r*k/2 */
    const uint8_t *scales; /* linear E4M3, row r at scales + r*k/16 */
    int64_t k;             /* multiple of 16 */
    float global_scale;    /* multiplied into each finished dot product (one rounding) */
} sb_moe_matrix;

/* Activation rows of the tokens routed to one expert, and where their results go. */
typedef struct {
    const void *const *rows; /* m pointers to K activations: bf16 (scalar, AVX-512) or fp32 (AVX2) */
    int32_t m;
    float *out;         /* result for activation row i, weight row r: out[i*out_stride + r] */
    int64_t out_stride;
} sb_moe_batch;

/* Decode tables built once per call: E2M1(code) * E4M3(scale) for all 256 x 16 pairs (exact in bf16
 * and fp32), and the 256 decoded scales. */
typedef struct {
    uint16_t bf16[256 * 16];
    float f32[256 * 16];
    float scale[256];
} sb_moe_tables;

/* out[i][r] = (W[r] . act_i) * global_scale for r in [row_begin, row_end), a multiple of 4 rows. */
void sb_moe_rows_scalar(const sb_moe_matrix *w, int64_t row_begin, int64_t row_end, const sb_moe_batch *b,
                        const sb_moe_tables *t);
/* h = bf16(silu(gate) * up) for n elements; also writes the fp32 value of h when h32 != NULL. */
void sb_moe_swiglu_scalar(const float *up, const float *gate, int64_t n, uint16_t *h16, float *h32);

#if SB_MAX_ISA >= 2
void sb_moe_rows_avx2(const sb_moe_matrix *w, int64_t row_begin, int64_t row_end, const sb_moe_batch *b,
                      const sb_moe_tables *t);
void sb_moe_swiglu_avx2(const float *up, const float *gate, int64_t n, uint16_t *h16, float *h32);
#endif

#if SB_MAX_ISA >= 3
void sb_moe_rows_avx512(const sb_moe_matrix *w, int64_t row_begin, int64_t row_end, const sb_moe_batch *b,
                        const sb_moe_tables *t);
void sb_moe_swiglu_avx512(const float *up, const float *gate, int64_t n, uint16_t *h16, float *h32);
#endif

#endif
