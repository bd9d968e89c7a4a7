/* Dispatch rule and workspace set-up of the allreduce (docs/kernels-allreduce.md, Dispatch). */
#include "allreduce_workspace.h"

/* ---- Dispatch -------------------------------------------------------------------------------- */

/* vLLM: should_custom_ar (size % 16, size < max_size; ranks == 2 or fully connected, which shared
 * memory is) then custom_all_reduce.cuh allreduce() picks the kernel; everything else goes to NCCL. */
int32_t sb_allreduce_choose(int32_t ranks, int64_t bytes, int64_t custom_max_bytes) {
    if (!valid_ranks(ranks) || bytes < 0 || custom_max_bytes < 0) return -1;
    if (bytes % 16 != 0 || bytes >= custom_max_bytes) return SB_AR_RING;
    if (ranks == 2) return SB_AR_ONE_SHOT;
    if ((ranks <= 4 && bytes < 512 * 1024) || (ranks <= 8 && bytes < 256 * 1024)) return SB_AR_ONE_SHOT;
    return SB_AR_TWO_SHOT;
}

/* ---- Workspace ------------------------------------------------------------------------------- */

int64_t sb_allreduce_workspace_bytes(int32_t ranks, int64_t max_bytes) {
    if (!valid_ranks(ranks) || max_bytes < 0 || max_bytes > AR_MAX_BYTES_LIMIT) return -1;
    return (int64_t)sizeof(ar_header) +
           ranks * ((int64_t)sizeof(ar_control) + stage16_bytes(max_bytes) + RING_SLOTS * slot_bytes(max_bytes));
}

int32_t sb_allreduce_init(void *workspace, int64_t workspace_bytes, int32_t ranks, int64_t max_bytes) {
    int64_t needed = sb_allreduce_workspace_bytes(ranks, max_bytes);
    if (workspace == NULL || ((uintptr_t)workspace & (AR_LINE - 1)) != 0 || needed < 0 ||
        workspace_bytes < needed) {
        return SB_ERR_ARGUMENT;
    }
    ar_header *h = header_of(workspace);
    h->magic = 0; /* invalid until fully initialised */
    h->ranks = ranks;
    h->max_bytes = max_bytes;
    h->stage16_bytes = stage16_bytes(max_bytes);
    h->slot_bytes = slot_bytes(max_bytes);
    for (int r = 0; r < ranks; r++) {
        ar_control *c = control_of(workspace, r);
        c->barrier_epoch = 0;
        c->ring_published = 0;
        c->ring_received = 0;
        c->blocks_done = 0;
        c->spin_limit = AR_SPINS_DEDICATED;
        for (int p = 0; p < AR_MAX_RANKS; p++) atomic_init(&c->arrived[p].value, 0);
        atomic_init(&c->ring_ready.value, 0);
        atomic_init(&c->ring_consumed.value, 0);
        atomic_init(&c->progress.value, 0);
    }
    h->magic = AR_MAGIC;
    return SB_OK;
}

