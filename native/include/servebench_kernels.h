/*
 * servebench kernel C ABI, version 1.
 *
 * The plug point for kernel benchmarks: any library exporting these functions can be measured by
 * pointing -Dservebench.kernels.lib=/path/to/lib.so at it. Rules that keep the ABI portable to a CUDA
 * implementation (pointers then being device pointers and `threads` a launch hint):
 *   - plain pointers and 64-bit sizes only, no structs passed by value, no library-global state;
 *   - every buffer is owned by the caller, including workspaces (sizes from the *_bytes queries);
 *   - every function returns an sb_status; SB_ERR_ARGUMENT leaves all outputs untouched;
 *   - bf16 is passed as uint16_t bit patterns, E4M3 scales and packed E2M1 pairs as uint8_t.
 * `threads` is the number of CPU threads the call may use (>= 1); results never depend on it.
 */
#ifndef SERVEBENCH_KERNELS_H
#define SERVEBENCH_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Built with -fvisibility=hidden: exactly the functions declared here are exported. */
#pragma GCC visibility push(default)

#define SB_ABI_VERSION 1

enum sb_status {
    SB_OK = 0,
    SB_ERR_ARGUMENT = 1,    /* a size, pointer or enum value the function cannot accept */
    SB_ERR_UNSUPPORTED = 2, /* valid request this implementation does not provide */
    SB_ERR_INTERNAL = 3
};

int32_t sb_abi_version(void);

/* Static text naming the implementation and the instruction set it dispatched to on this CPU,
 * e.g. "servebench-c avx512bf16". */
const char *sb_implementation(void);

/* ---- Baseline -------------------------------------------------------------------------------- */

/* memcpy split into `threads` contiguous shares: the bandwidth baseline measured beside the kernels. */
int32_t sb_copy(void *dst, const void *src, int64_t bytes, int32_t threads);

/* ---- NVFP4 (docs/kernels-nvfp4.md) ------------------------------------------------------------ */

enum sb_scale_layout {
    SB_SCALES_LINEAR = 0,        /* E4M3 scales row-major [rows, k/16] (checkpoint `weight_scale`) */
    SB_SCALES_SWIZZLED_128X4 = 1 /* CUTLASS/FlashInfer 128x4 atoms, padded to [round_up(rows,128), round_up(k/16,4)] */
};

/* Bytes of the scale buffer for a [rows, k] tensor in `layout`; -1 for invalid arguments. */
int64_t sb_nvfp4_scale_bytes(int64_t rows, int64_t k, int32_t layout);

/* Decode form: out[r][i] = (E2M1(code) * E4M3(scale)) * global_scale, in that multiplication order
 * (bit-exact in fp32; bf16 output rounds that fp32 value to nearest even once).
 * packed: rows*k/2 bytes, element 2i in the low nibble of byte i. rows >= 1; k must be a positive multiple of 16.
 * global_scale is the checkpoint's weight_scale_2 (multiplied in). A NaN scale (0x7F/0xFF) yields the quiet
 * NaN 0x7FC00000 (bf16 0x7FC0). out must be aligned to its element size. */
int32_t sb_nvfp4_dequant_f32(const uint8_t *packed, const uint8_t *scales, int32_t layout,
                             float global_scale, int64_t rows, int64_t k, float *out, int32_t threads);
int32_t sb_nvfp4_dequant_bf16(const uint8_t *packed, const uint8_t *scales, int32_t layout,
                              float global_scale, int64_t rows, int64_t k, uint16_t *out, int32_t threads);

/* Exact-math quantiser (docs/kernels-nvfp4.md, Quantiser): per block of 16,
 * sf = E4M3_rne_satfinite(amax / (6 * global_scale));
 * a block whose sf byte is 0 gets codes 0 (SF 0x00, the GPU kernel's zero-block convention);
 * codes = E2M1_rne_satfinite(x / (fp32(sf) * global_scale)), negative values keep the sign (0x8 = -0).
 * Swizzle padding bytes are written as 0. global_scale must be a positive normal float and every value finite. */
int32_t sb_nvfp4_quantize(const float *values, int64_t rows, int64_t k, float global_scale, int32_t layout,
                          uint8_t *packed, uint8_t *scales);

/* ---- MoE (docs/kernels-moe.md) --------------------------------------------------------------- */

/* GLM-5 / DeepSeek-V3 "noaux_tc" routing from router logits [tokens, experts] (fp32):
 * s = sigmoid(logit) (defined in the docs: fp64 with the shared exp polynomial, rounded to fp32);
 * selection on s + selection_bias (NULL = no bias) restricted to the best topk_group of n_group groups
 * (group score = sum of its 2 best biased scores); top_k by biased score, descending, ties to the lower
 * expert index; weights = unbiased s of the chosen experts, divided by (sum + 1e-20f) when renormalize,
 * then multiplied by routed_scaling_factor. Outputs topk_ids/topk_weights [tokens, top_k]. */
int32_t sb_moe_route(const float *logits, const float *selection_bias, int64_t tokens, int32_t experts,
                     int32_t top_k, int32_t n_group, int32_t topk_group, int32_t renormalize,
                     float routed_scaling_factor, int32_t *topk_ids, float *topk_weights);

/* Bytes of workspace sb_moe_w4a16 needs. */
int64_t sb_moe_workspace_bytes(int64_t tokens, int64_t hidden, int64_t inter, int32_t experts, int32_t top_k);

/* Routed experts with NVFP4 weights dequantised on the fly and bf16 activations (W4A16):
 *   for each (t, j): e = topk_ids[t, j]
 *     u = (W13[e][0:I] . x[t]) * g13[e];  g = (W13[e][I:2I] . x[t]) * g13[e]      (fp32 accumulation)
 *     h = bf16_rne(silu(g) * u)                                                    ([Up; Gate] layout)
 *     y = (W2[e] . h) * g2[e]
 *   out[t] = sum over j = 0..top_k-1, in that order, of topk_weights[t, j] * y           (fp32)
 * W13: packed [E, 2I, H/2], scales linear [E, 2I, H/16]; W2: packed [E, H, I/2], scales [E, H, I/16];
 * g13, g2: per-expert global scales [E] (weight_scale_2). H and I are multiples of 16.
 * x: bf16 [tokens, H]; out: fp32 [tokens, H]. Tokens are grouped by expert before the GEMMs
 * (stable by expert, token, slot). Summation order inside a dot product is the implementation's:
 * results agree with the reference within the tolerance stated in docs/kernels.md. */
int32_t sb_moe_w4a16(const uint16_t *x, int64_t tokens, int64_t hidden, int64_t inter, int32_t experts,
                     int32_t top_k, const int32_t *topk_ids, const float *topk_weights,
                     const uint8_t *w13_packed, const uint8_t *w13_scales, const float *w13_global,
                     const uint8_t *w2_packed, const uint8_t *w2_scales, const float *w2_global,
                     float *out, void *workspace, int64_t workspace_bytes, int32_t threads);

/* ---- Tensor-parallel allreduce (docs/kernels-allreduce.md) ------------------------------------ */

enum sb_allreduce_algorithm {
    SB_AR_AUTO = 0,     /* vLLM custom-allreduce dispatch, see sb_allreduce_choose */
    SB_AR_ONE_SHOT = 1, /* every rank sums all inputs in rank order 0..N-1 */
    SB_AR_TWO_SHOT = 2, /* reduce-scatter (slice owner sums in rotated order r, r+1, ...) + all-gather */
    SB_AR_RING = 3      /* 2(N-1) steps over N chunks, the NCCL ring model */
};

/* The algorithm SB_AR_AUTO runs, in vLLM's order: bytes % 16 != 0 or bytes >= custom_max_bytes -> ring
 * (the NCCL fallback); else ranks == 2 -> one-shot; (ranks <= 4 && bytes < 512 KiB) or
 * (ranks <= 8 && bytes < 256 KiB) -> one-shot; else two-shot. custom_max_bytes is vLLM's max_size
 * (SB_AR_AUTO uses the 8 MiB default). -1 for invalid arguments (ranks outside 2..8, negative sizes). */
int32_t sb_allreduce_choose(int32_t ranks, int64_t bytes, int64_t custom_max_bytes);

/* Shared workspace for `ranks` ranks and messages up to max_bytes: signal flags + per-rank staging.
 * workspace_bytes: -1 for invalid arguments. init: the workspace must be 64-byte aligned. */
int64_t sb_allreduce_workspace_bytes(int32_t ranks, int64_t max_bytes);
int32_t sb_allreduce_init(void *workspace, int64_t workspace_bytes, int32_t ranks, int64_t max_bytes);

/* One rank's part of a bf16 sum-allreduce (fp32 accumulation, one rounding to bf16 per element).
 * Called concurrently by all `ranks` threads with the same arguments except `rank` and `out`.
 * inputs[p] is rank p's buffer (peers read it directly, like IPC-registered buffers); out may equal
 * inputs[rank] (in-place). count bf16 elements, count*2 a multiple of 16 and <= max_bytes.
 * Every rank ends with bitwise identical output. A rank whose own arguments are invalid returns
 * SB_ERR_ARGUMENT at once while its peers wait for it: pass consistent arguments (or use _run). */
int32_t sb_allreduce_bf16_rank(void *workspace, int32_t rank, int32_t ranks, int32_t algorithm,
                               const uint16_t *const *inputs, uint16_t *out, int64_t count);

/* Runs all ranks on `ranks` threads of its own, `repeats` collectives back to back (out-of-place when
 * outputs[p] != inputs[p]). The benchmark entry point: one call = repeats collectives.
 * SB_ERR_INTERNAL, with nothing written, when OpenMP gives the parallel region fewer than `ranks`
 * threads (OMP_THREAD_LIMIT, or a call from inside another parallel region). */
int32_t sb_allreduce_bf16_run(void *workspace, int32_t ranks, int32_t algorithm,
                              const uint16_t *const *inputs, uint16_t *const *outputs, int64_t count,
                              int32_t repeats);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
