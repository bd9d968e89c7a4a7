/*
 * What the one-shot allreduce's memory pattern can reach on this machine, without the kernel's flags, workspace
 * or JMH: two threads (one per rank), S = 4 MiB per rank, cache-resident as in AllreduceBenchmark, each rank
 * reading its own and its peer's input and writing its output, against memcpy of S per thread (the suite's
 * allreduce baseline, memcpy_per_thread_gbps at 2·S bytes, 2 threads). Prints S/t per pattern, i.e. busbw at N = 2
 * and the baseline's per-thread rate, medians of 9 trials of REPS collectives each (docs/kernels.md, "Caveats").
 *   make -C native probe && target/native/probes/one_shot_pattern [REPS]
 */
#include <immintrin.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BYTES ((size_t)4 << 20)
#define ELEMENTS (BYTES / 2)
#define TRIALS 9
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The same bytes moved as the one-shot, with the cheapest arithmetic: 16-bit integer adds. */
AVX512 static void add_i16(uint16_t *out, const uint16_t *a, const uint16_t *b) {
    for (size_t i = 0; i < ELEMENTS; i += 32) {
        _mm512_storeu_si512(out + i, _mm512_add_epi16(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i)));
    }
}

AVX512 static __m512 widen(const uint16_t *p) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p)), 16));
}

/* The kernel's arithmetic (allreduce_sum.c, AVX-512 path for sums without subnormals): bf16 -> fp32, add, round. */
AVX512 static void sum_bf16(uint16_t *out, const uint16_t *a, const uint16_t *b) {
    for (size_t i = 0; i < ELEMENTS; i += 32) {
        __m512 low = _mm512_add_ps(widen(a + i), widen(b + i));
        __m512 high = _mm512_add_ps(widen(a + i + 16), widen(b + i + 16));
        _mm512_storeu_si512(out + i, (__m512i)_mm512_cvtne2ps_pbh(high, low));
    }
}

enum { MEMCPY, ADD_I16_PEER, SUM_BF16_PEER, SUM_BF16_LOCAL, PATTERNS };
static const char *const NAMES[PATTERNS] = {
    "memcpy S per thread (the baseline)",
    "own + peer input -> output, i16 adds",
    "own + peer input -> output, bf16 sum",
    "own + second local buffer -> output, bf16 sum",
};

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    if (reps < 1 || !__builtin_cpu_supports("avx512bf16")) {
        fprintf(stderr, "one_shot_pattern: needs REPS >= 1 and a CPU with AVX-512 BF16\n");
        return 2;
    }
    uint16_t *input[2], *local[2], *output[2];
    for (int r = 0; r < 2; r++) {
        input[r] = aligned_alloc(64, BYTES);
        local[r] = aligned_alloc(64, BYTES);
        output[r] = aligned_alloc(64, BYTES);
        for (size_t i = 0; i < ELEMENTS; i++) {
            input[r][i] = (uint16_t)(0x3E00 | ((i * 7 + (size_t)r) & 0xff)); /* normal bf16 values in [0.125, 0.5) */
            local[r][i] = (uint16_t)(0x3E00 | (i & 0xff));
        }
        memset(output[r], 0, BYTES);
    }
    double baseline = 0;
    for (int pattern = 0; pattern < PATTERNS; pattern++) {
        double us[TRIALS];
        for (int trial = 0; trial < TRIALS; trial++) {
            double start = 0, end = 0;
#pragma omp parallel num_threads(2)
            {
                int r = omp_get_thread_num();
#pragma omp barrier
#pragma omp master
                start = seconds();
                for (int i = 0; i < reps; i++) {
                    switch (pattern) {
                    case MEMCPY: memcpy(output[r], local[r], BYTES); break;
                    case ADD_I16_PEER: add_i16(output[r], input[r], input[1 - r]); break;
                    case SUM_BF16_PEER: sum_bf16(output[r], input[0], input[1]); break;
                    default: sum_bf16(output[r], input[r], local[r]); break;
                    }
#pragma omp barrier
                }
#pragma omp master
                end = seconds();
            }
            us[trial] = (end - start) / reps * 1e6;
        }
        for (int i = 0; i < TRIALS; i++) {
            for (int j = i + 1; j < TRIALS; j++) {
                if (us[j] < us[i]) { double swap = us[i]; us[i] = us[j]; us[j] = swap; }
            }
        }
        double gbps = (double)BYTES / us[TRIALS / 2] / 1e3;
        if (pattern == MEMCPY) baseline = gbps;
        printf("%-48s %7.1f us (%.1f-%.1f)  S/t %5.1f GB/s  %.2f x memcpy\n", NAMES[pattern], us[TRIALS / 2], us[0],
               us[TRIALS - 1], gbps, gbps / baseline);
    }
    return 0;
}
