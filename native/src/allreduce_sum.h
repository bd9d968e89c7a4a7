/* The element loop shared by every allreduce algorithm: bf16 sources summed in fp32, in a fixed order. */
#ifndef SB_ALLREDUCE_SUM_H
#define SB_ALLREDUCE_SUM_H

#include <stdint.h>

#define SB_AR_SUM_MAX_SOURCES 8

/* For each element i of [begin, end):
 *   acc = partial != NULL ? partial[i] : fp32(source[0][i])
 *   acc += fp32(source[k][i]) for the remaining sources, k ascending (fp32 adds, no fusion)
 *   out32[i] = acc (when out32 != NULL); out16[j][i] = bf16_rne(acc) (for each non-NULL out16[j]).
 * Every source of an element is read before any output of it is written, so an output may be the very
 * buffer a source reads (in place). */
typedef struct {
    const float *partial;
    const uint16_t *source[SB_AR_SUM_MAX_SOURCES];
    int sources;
    float *out32;
    uint16_t *out16[2];
} sb_ar_sum_job;

/* isa: an sb_isa() level; every level produces bit-identical results. */
void sb_ar_sum(int isa, const sb_ar_sum_job *job, int64_t begin, int64_t end);

#endif
