/* Shared by the kernel sources: ISA selection, bf16 helpers, argument checks. */
#ifndef SB_INTERNAL_H
#define SB_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include "servebench_kernels.h"

#ifndef SB_MAX_ISA
#define SB_MAX_ISA 3
#endif

/* Instruction-set levels; SB_MAX_ISA caps what a build may use, sb_isa() is what this CPU runs. */
enum sb_isa { SB_ISA_SCALAR = 0, SB_ISA_AVX2 = 2, SB_ISA_AVX512BF16 = 3 };

int sb_isa(void);

#define SB_TARGET_AVX2 __attribute__((target("avx2,fma,f16c,bmi2")))
#define SB_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16,avx2,fma,f16c,bmi2")))

static inline float sb_bf16_to_f32(uint16_t h) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Round to nearest even; NaN stays NaN (quiet). */
static inline uint16_t sb_f32_to_bf16(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((bits >> 16) | 0x0040u);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return (uint16_t)(bits >> 16);
}

static inline int sb_clamp_threads(int32_t threads) { return threads < 1 ? 1 : threads; }

/* Injected slowdown, only in the builds that test the kernel A/B comparison (`make slow`, docs/gate.md,
 * "Kernel A/B"): with -DSB_INJECTED_SLOWDOWN_PCT=P the dequant and MoE entry points, after doing their work,
 * spin on the calling thread for P % of the time that work took. A fraction of the call's own duration, not
 * a fixed delay, so B is P % slower at every shape and whatever else loads the machine; results unchanged.
 * In every other build these are no-ops the compiler removes. */
#ifdef SB_INJECTED_SLOWDOWN_PCT
int64_t sb_slowdown_start(void);
int32_t sb_slowdown_finish(int64_t start_ns, int32_t status);
#else
static inline int64_t sb_slowdown_start(void) { return 0; }
static inline int32_t sb_slowdown_finish(int64_t start_ns, int32_t status) {
    (void)start_ns;
    return status;
}
#endif

#endif
