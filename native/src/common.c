#include <omp.h>
#include "sb_internal.h"

int sb_isa(void) {
#if SB_MAX_ISA >= 3
    if (__builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl")) return SB_ISA_AVX512BF16;
#endif
#if SB_MAX_ISA >= 2
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SB_ISA_AVX2;
#endif
    return SB_ISA_SCALAR;
}

int32_t sb_abi_version(void) { return SB_ABI_VERSION; }

const char *sb_implementation(void) {
    switch (sb_isa()) {
    case SB_ISA_AVX512BF16: return "servebench-c avx512bf16";
    case SB_ISA_AVX2: return "servebench-c avx2";
    default: return "servebench-c scalar";
    }
}

int32_t sb_copy(void *dst, const void *src, int64_t bytes, int32_t threads) {
    if (dst == NULL || src == NULL || bytes < 0) return SB_ERR_ARGUMENT;
    int n = sb_clamp_threads(threads);
    /* Shares rounded to 64 bytes so no two threads write one cache line. */
    int64_t share = ((bytes + n - 1) / n + 63) & ~(int64_t)63;
#pragma omp parallel for num_threads(n) schedule(static, 1)
    for (int i = 0; i < n; i++) {
        int64_t begin = (int64_t)i * share;
        int64_t end = begin + share < bytes ? begin + share : bytes;
        if (begin < end) memcpy((char *)dst + begin, (const char *)src + begin, (size_t)(end - begin));
    }
    return SB_OK;
}
