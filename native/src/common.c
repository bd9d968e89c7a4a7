#include <omp.h>
#include <time.h>
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

/* A slowed build says so wherever its implementation is shown (figures.md, kernel-compare.json). */
#ifdef SB_INJECTED_SLOWDOWN_PCT
#define SB_STRINGIFY(x) #x
#define SB_PERCENT(x) SB_STRINGIFY(x)
#define SB_SLOWDOWN_LABEL " +" SB_PERCENT(SB_INJECTED_SLOWDOWN_PCT) "% injected slowdown"
#else
#define SB_SLOWDOWN_LABEL ""
#endif

const char *sb_implementation(void) {
    switch (sb_isa()) {
    case SB_ISA_AVX512BF16: return "servebench-c avx512bf16" SB_SLOWDOWN_LABEL;
    case SB_ISA_AVX2: return "servebench-c avx2" SB_SLOWDOWN_LABEL;
    default: return "servebench-c scalar" SB_SLOWDOWN_LABEL;
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

#ifdef SB_INJECTED_SLOWDOWN_PCT
static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t sb_slowdown_start(void) { return now_ns(); }

/* Spins rather than sleeps: a sleep's wake-up on a loaded machine overshoots by a scheduler tick, far more
 * than P % of a sub-millisecond call. A failed call (bad arguments) returns at once. */
int32_t sb_slowdown_finish(int64_t start_ns, int32_t status) {
    if (status != SB_OK) return status;
    int64_t end = now_ns();
    int64_t until = end + (end - start_ns) * (int64_t)(SB_INJECTED_SLOWDOWN_PCT) / 100;
    while (now_ns() < until) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    return status;
}
#endif
