/*
 * Tensor-parallel bf16 sum-allreduce over shared memory (kernels.md 3 and 4.3; algorithms, exact summation
 * orders and the dispatch table in docs/kernels-allreduce.md). N ranks are N threads; rank p's input is
 * read by its peers directly, as IPC-registered GPU buffers are in vLLM's custom allreduce.
 *
 * Workspace (caller-owned, 64-byte aligned):
 *   [header line][control block of rank 0 .. N-1][staging of rank 0 .. N-1]
 * A control block holds the rank's private sequence counters and the flags written into it (barrier
 * arrivals and ring publications by peers, one-shot progress by the rank itself), every flag on its own
 * cache line. Flags only ever grow (epochs and counts), so nothing is reset between collectives and a
 * waiter tests "flag >= expected": a fast peer that has already moved on still satisfies the wait.
 * Staging per rank: stage16 (bf16, max_bytes) and, for N >= 3, stage32 (fp32 ring partial sums,
 * 2 * max_bytes), both indexed by element like the message.
 */
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include "sb_internal.h"
#include "allreduce_sum.h"

#define AR_LINE 64
#define AR_MAGIC UINT64_C(0x5342414c4c524431) /* "SBALLRD1" */
#define AR_MIN_RANKS 2
#define AR_MAX_RANKS 8
#define AR_DEFAULT_CUSTOM_MAX_BYTES (INT64_C(8) << 20) /* vLLM max_size default, used by SB_AR_AUTO */
#define AR_MAX_BYTES_LIMIT (INT64_C(1) << 40)         /* keeps every size computation far from overflow */
/* Spins before a waiter starts yielding: enough to cover a peer on another core (~0.1-1 us), short
 * enough that 8 ranks on 2 cores hand the CPU to the rank they wait for instead of burning slices. */
#define AR_SPINS_BEFORE_YIELD 256

typedef struct {
    _Alignas(AR_LINE) _Atomic uint64_t value;
} ar_flag;

typedef struct {
    /* Written and read by the owning rank only: where it is in the shared flag sequences. */
    _Alignas(AR_LINE) uint64_t barrier_epoch;
    uint64_t ring_published;
    uint64_t ring_received;
    uint64_t blocks_done;
    ar_flag arrived[AR_MAX_RANKS]; /* arrived[p] = the last barrier epoch rank p has reached */
    ar_flag ring_ready;            /* publications of the previous rank in the ring */
    ar_flag progress;              /* one-shot blocks this rank has summed (written by the rank itself) */
} ar_control;

typedef struct {
    _Alignas(AR_LINE) uint64_t magic;
    int64_t ranks;
    int64_t max_bytes;
    int64_t stage16_bytes; /* per rank */
    int64_t stage32_bytes; /* per rank, 0 for two ranks */
} ar_header;

_Static_assert(sizeof(ar_header) == AR_LINE, "header is one cache line");
_Static_assert(sizeof(ar_flag) == AR_LINE, "one flag per cache line");

static int64_t round_up_line(int64_t bytes) { return (bytes + AR_LINE - 1) & ~(int64_t)(AR_LINE - 1); }

static int64_t stage16_bytes(int64_t max_bytes) { return round_up_line(max_bytes); }
static int64_t stage32_bytes(int32_t ranks, int64_t max_bytes) {
    return ranks >= 3 ? round_up_line(2 * max_bytes) : 0;
}

static ar_header *header_of(void *ws) { return (ar_header *)ws; }
static ar_control *control_of(void *ws, int rank) {
    return (ar_control *)((char *)ws + sizeof(ar_header)) + rank;
}
static char *staging_of(void *ws, int rank) {
    const ar_header *h = header_of(ws);
    return (char *)ws + sizeof(ar_header) + h->ranks * (int64_t)sizeof(ar_control) +
           rank * (h->stage16_bytes + h->stage32_bytes);
}
static uint16_t *stage16_of(void *ws, int rank) { return (uint16_t *)staging_of(ws, rank); }
static float *stage32_of(void *ws, int rank) {
    return (float *)(staging_of(ws, rank) + header_of(ws)->stage16_bytes);
}

static int valid_ranks(int32_t ranks) { return ranks >= AR_MIN_RANKS && ranks <= AR_MAX_RANKS; }
static int mod(int a, int n) { return ((a % n) + n) % n; }

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
    return (int64_t)sizeof(ar_header) + ranks * ((int64_t)sizeof(ar_control) + stage16_bytes(max_bytes) +
                                                 stage32_bytes(ranks, max_bytes));
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
    h->stage32_bytes = stage32_bytes(ranks, max_bytes);
    for (int r = 0; r < ranks; r++) {
        ar_control *c = control_of(workspace, r);
        c->barrier_epoch = 0;
        c->ring_published = 0;
        c->ring_received = 0;
        c->blocks_done = 0;
        for (int p = 0; p < AR_MAX_RANKS; p++) atomic_init(&c->arrived[p].value, 0);
        atomic_init(&c->ring_ready.value, 0);
        atomic_init(&c->progress.value, 0);
    }
    h->magic = AR_MAGIC;
    return SB_OK;
}

/* ---- Synchronisation ------------------------------------------------------------------------- */

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void wait_at_least(_Atomic uint64_t *flag, uint64_t expected) {
    unsigned spins = 0;
    while (atomic_load_explicit(flag, memory_order_acquire) < expected) {
        if (spins < AR_SPINS_BEFORE_YIELD) {
            spins++;
            cpu_relax();
        } else {
            sched_yield();
        }
    }
}

/* start_sync / end_sync: tell every rank (self included) this rank reached the next epoch, then wait
 * until every rank has. Release/acquire makes all writes before the barrier visible after it. */
static void barrier(void *ws, int rank, int ranks) {
    ar_control *self = control_of(ws, rank);
    uint64_t epoch = ++self->barrier_epoch;
    for (int p = 0; p < ranks; p++) {
        atomic_store_explicit(&control_of(ws, p)->arrived[rank].value, epoch, memory_order_release);
    }
    for (int p = 0; p < ranks; p++) wait_at_least(&self->arrived[p].value, epoch);
}

/* Ring flags: the k-th publication of rank r-1 pairs with the k-th receive of rank r. */
static void ring_publish(void *ws, int rank, int ranks) {
    uint64_t count = ++control_of(ws, rank)->ring_published;
    atomic_store_explicit(&control_of(ws, mod(rank + 1, ranks))->ring_ready.value, count, memory_order_release);
}

static void ring_receive(void *ws, int rank) {
    ar_control *self = control_of(ws, rank);
    wait_at_least(&self->ring_ready.value, ++self->ring_received);
}

/* ---- Algorithms ------------------------------------------------------------------------------ */

typedef struct {
    void *ws;
    int rank;
    int ranks;
    int isa;
    const uint16_t *const *inputs;
    uint16_t *out;
    int64_t count;
} ar_call;

/* Slice/chunk p of the message: 16-byte (8-element) units split evenly, the last part takes the rest. */
static int64_t part_begin(int64_t count, int ranks, int p) { return (int64_t)p * (count / 8 / ranks) * 8; }
static int64_t part_end(int64_t count, int ranks, int p) {
    return p == ranks - 1 ? count : part_begin(count, ranks, p + 1);
}

/* Copies with two destinations read the source once per block while it is still in L1/L2. */
static void copy_to_two(uint16_t *a, uint16_t *b, const uint16_t *src, int64_t elements) {
    const int64_t block = 4096;
    for (int64_t i = 0; i < elements; i += block) {
        int64_t n = elements - i < block ? elements - i : block;
        memcpy(a + i, src + i, (size_t)n * 2);
        if (b != NULL) memcpy(b + i, a + i, (size_t)n * 2);
    }
}

/* Every rank sums all inputs in rank order 0..N-1, block by block, and publishes how many blocks it has
 * finished (its progress flag). Out of place the sums go straight to the output. In place, peers may
 * still be reading the block of this rank's input that its output would overwrite, so blocks are summed
 * into a ring of staging slots (small enough to stay in L2) and block j is copied out once every peer's
 * progress has passed it. Waiting for every peer to finish every block is the end_sync (peers are done
 * reading this rank's input); ranks may mix in-place and out-of-place in one collective. */
enum { ONE_SHOT_BLOCK = 4096, ONE_SHOT_SLOTS = 16 };

static void wait_for_peers(const ar_call *c, uint64_t progress) {
    for (int p = 0; p < c->ranks; p++) {
        if (p != c->rank) wait_at_least(&control_of(c->ws, p)->progress.value, progress);
    }
}

static int64_t block_end(const ar_call *c, int64_t block) {
    int64_t end = (block + 1) * ONE_SHOT_BLOCK;
    return end < c->count ? end : c->count;
}

static uint16_t *one_shot_slot(const ar_call *c, int64_t block) {
    return stage16_of(c->ws, c->rank) + (block % ONE_SHOT_SLOTS) * ONE_SHOT_BLOCK;
}

static void one_shot_copy_out(const ar_call *c, uint64_t base, int64_t block) {
    wait_for_peers(c, base + (uint64_t)block + 1);
    int64_t begin = block * ONE_SHOT_BLOCK;
    memcpy(c->out + begin, one_shot_slot(c, block), (size_t)(block_end(c, block) - begin) * 2);
}

static void one_shot(const ar_call *c) {
    ar_control *self = control_of(c->ws, c->rank);
    int in_place = c->out == c->inputs[c->rank];
    barrier(c->ws, c->rank, c->ranks);
    uint64_t base = self->blocks_done; /* equal on every rank: all run the same collectives */
    int64_t blocks = (c->count + ONE_SHOT_BLOCK - 1) / ONE_SHOT_BLOCK;
    sb_ar_sum_job job = {.sources = c->ranks};
    for (int64_t b = 0; b < blocks; b++) {
        int64_t begin = b * ONE_SHOT_BLOCK;
        for (int p = 0; p < c->ranks; p++) job.source[p] = c->inputs[p] + begin;
        job.out16[0] = in_place ? one_shot_slot(c, b) : c->out + begin;
        sb_ar_sum(c->isa, &job, 0, block_end(c, b) - begin);
        atomic_store_explicit(&self->progress.value, base + (uint64_t)b + 1, memory_order_release);
        if (in_place && b >= ONE_SHOT_SLOTS - 1) one_shot_copy_out(c, base, b - (ONE_SHOT_SLOTS - 1));
    }
    if (in_place) {
        for (int64_t j = blocks > ONE_SHOT_SLOTS - 1 ? blocks - (ONE_SHOT_SLOTS - 1) : 0; j < blocks; j++) {
            one_shot_copy_out(c, base, j);
        }
    } else {
        wait_for_peers(c, base + (uint64_t)blocks);
    }
    self->blocks_done = base + (uint64_t)blocks;
}

/* Rank r owns slice r: sums it reading ranks r, r+1, ..., r+N-1 (mod N), writes it to its output and
 * publishes it in stage16; after the barrier every rank copies the other slices. Slice r of any input
 * is read by rank r alone, so writing out[slice r] early is safe in place too; the next collective's
 * first barrier keeps stage16 intact until every peer has gathered from it. */
static void two_shot(const ar_call *c) {
    barrier(c->ws, c->rank, c->ranks);
    sb_ar_sum_job job = {.sources = c->ranks, .out16 = {c->out, stage16_of(c->ws, c->rank)}};
    for (int i = 0; i < c->ranks; i++) job.source[i] = c->inputs[mod(c->rank + i, c->ranks)];
    sb_ar_sum(c->isa, &job, part_begin(c->count, c->ranks, c->rank), part_end(c->count, c->ranks, c->rank));
    barrier(c->ws, c->rank, c->ranks);
    for (int i = 1; i < c->ranks; i++) {
        int p = mod(c->rank + i, c->ranks);
        int64_t begin = part_begin(c->count, c->ranks, p);
        memcpy(c->out + begin, stage16_of(c->ws, p) + begin, (size_t)(part_end(c->count, c->ranks, p) - begin) * 2);
    }
}

/* NCCL's ring: N chunks, next = rank+1. Reduce-scatter step s (0..N-1): rank r handles chunk
 * (r-1-s) mod N. Step 0 sends its own chunk (bf16 copy to stage16); step s reads the previous rank's
 * partial, adds its input and publishes (fp32 in stage32 so there is still one rounding); step N-1 ends
 * with chunk r complete, rounded to bf16 into out and stage16. Chunk c is therefore summed in the order
 * c+1, c+2, ..., c+N (mod N). All-gather step t (1..N-1): rank r copies chunk (r-t) mod N from the
 * previous rank's stage16 to out and, except in the last step, forwards it through its own stage16.
 * Every step moves its chunk in pieces of RING_PIECE elements, one flag publication each, so a piece is
 * read by the next rank while still in cache (NCCL's FIFO slices do the same); both ends walk the same
 * chunks, so the k-th publication of rank r-1 is the k-th piece rank r receives.
 * Only rank r reads its input, so in place needs no staging copy.
 * stage16[chunk r-1] is written twice (step 0 and all-gather step 1); rank r+1 reads a piece of the first
 * value at its step 1, which happens before rank r-1 finishes that piece at step N-1 (each step acquires
 * the previous rank's publication of the piece), which happens before rank r's all-gather step 1 receives it. */
enum { RING_PIECE = 8192 };

static void ring_reduce_piece(const ar_call *c, int s, int64_t begin, int64_t end) {
    void *ws = c->ws;
    int r = c->rank, n = c->ranks, prev = mod(r - 1, n);
    const uint16_t *own = c->inputs[r];
    if (s == 0) {
        memcpy(stage16_of(ws, r) + begin, own + begin, (size_t)(end - begin) * 2);
        return;
    }
    sb_ar_sum_job job = {.sources = 1, .source = {own}};
    if (s == 1) {
        job.sources = 2;
        job.source[0] = stage16_of(ws, prev);
        job.source[1] = own;
    } else {
        job.partial = stage32_of(ws, prev);
    }
    if (s < n - 1) {
        job.out32 = stage32_of(ws, r);
    } else {
        job.out16[0] = c->out;
        job.out16[1] = stage16_of(ws, r);
    }
    sb_ar_sum(c->isa, &job, begin, end);
}

static void ring(const ar_call *c) {
    void *ws = c->ws;
    int r = c->rank, n = c->ranks, prev = mod(r - 1, n);
    barrier(ws, r, n);
    for (int s = 0; s < n; s++) {
        int chunk = mod(r - 1 - s, n);
        int64_t end = part_end(c->count, n, chunk);
        for (int64_t i = part_begin(c->count, n, chunk); i < end; i += RING_PIECE) {
            if (s > 0) ring_receive(ws, r);
            ring_reduce_piece(c, s, i, i + RING_PIECE < end ? i + RING_PIECE : end);
            ring_publish(ws, r, n);
        }
    }
    for (int t = 1; t < n; t++) {
        int chunk = mod(r - t, n);
        int64_t end = part_end(c->count, n, chunk);
        int forward = t < n - 1;
        for (int64_t i = part_begin(c->count, n, chunk); i < end; i += RING_PIECE) {
            int64_t pieces_end = i + RING_PIECE < end ? i + RING_PIECE : end;
            ring_receive(ws, r);
            copy_to_two(c->out + i, forward ? stage16_of(ws, r) + i : NULL, stage16_of(ws, prev) + i, pieces_end - i);
            if (forward) ring_publish(ws, r, n);
        }
    }
}

static void collective(const ar_call *c, int32_t algorithm) {
    switch (algorithm) {
    case SB_AR_ONE_SHOT: one_shot(c); break;
    case SB_AR_TWO_SHOT: two_shot(c); break;
    default: ring(c); break;
    }
}

/* ---- Argument checks (all before any rank touches shared state) ------------------------------ */

static int overlaps(const void *a, const void *b, int64_t bytes) {
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return bytes > 0 && x < y + (uintptr_t)bytes && y < x + (uintptr_t)bytes;
}

static int misaligned(const void *p) { return ((uintptr_t)p & 1u) != 0; }

/* What every rank can check identically: workspace, sizes, algorithm, the input pointers. */
static int valid_shared(void *ws, int32_t ranks, int32_t algorithm, const uint16_t *const *inputs, int64_t count) {
    if (ws == NULL || ((uintptr_t)ws & (AR_LINE - 1)) != 0 || !valid_ranks(ranks)) return 0;
    const ar_header *h = header_of(ws);
    if (h->magic != AR_MAGIC || h->ranks != ranks) return 0;
    if (algorithm < SB_AR_AUTO || algorithm > SB_AR_RING) return 0;
    if (count < 0 || count > h->max_bytes / 2 || (count * 2) % 16 != 0) return 0;
    if (inputs == NULL) return 0;
    for (int p = 0; p < ranks; p++) {
        if (inputs[p] == NULL || misaligned(inputs[p])) return 0;
    }
    return 1;
}

/* Rank r's output: either exactly its own input (in place) or disjoint from it, and never overlapping
 * a peer's input (the peer's rank reads or writes it concurrently). */
static int valid_output(int rank, int32_t ranks, const uint16_t *const *inputs, const uint16_t *out, int64_t count) {
    if (out == NULL || misaligned(out)) return 0;
    for (int p = 0; p < ranks; p++) {
        if (p == rank && out == inputs[p]) continue;
        if (overlaps(out, inputs[p], count * 2)) return 0;
    }
    return 1;
}

static int32_t resolve(int32_t algorithm, int32_t ranks, int64_t count) {
    return algorithm == SB_AR_AUTO ? sb_allreduce_choose(ranks, count * 2, AR_DEFAULT_CUSTOM_MAX_BYTES) : algorithm;
}

int32_t sb_allreduce_bf16_rank(void *workspace, int32_t rank, int32_t ranks, int32_t algorithm,
                               const uint16_t *const *inputs, uint16_t *out, int64_t count) {
    if (!valid_shared(workspace, ranks, algorithm, inputs, count) || rank < 0 || rank >= ranks ||
        !valid_output(rank, ranks, inputs, out, count)) {
        return SB_ERR_ARGUMENT;
    }
    ar_call call = {workspace, rank, ranks, sb_isa(), inputs, out, count};
    collective(&call, resolve(algorithm, ranks, count));
    return SB_OK;
}

int32_t sb_allreduce_bf16_run(void *workspace, int32_t ranks, int32_t algorithm, const uint16_t *const *inputs,
                              uint16_t *const *outputs, int64_t count, int32_t repeats) {
    if (!valid_shared(workspace, ranks, algorithm, inputs, count) || outputs == NULL || repeats < 1) {
        return SB_ERR_ARGUMENT;
    }
    for (int r = 0; r < ranks; r++) {
        if (!valid_output(r, ranks, inputs, outputs[r], count)) return SB_ERR_ARGUMENT;
        for (int q = 0; q < r; q++) {
            if (overlaps(outputs[r], outputs[q], count * 2)) return SB_ERR_ARGUMENT;
        }
    }
    int32_t resolved = resolve(algorithm, ranks, count);
    int isa = sb_isa();
    int team_mismatch = 0;
#pragma omp parallel num_threads(ranks)
    {
        /* All threads see the same team size, so either every rank runs or none does. */
        if (omp_get_num_threads() != ranks) {
            if (omp_get_thread_num() == 0) team_mismatch = 1;
        } else {
            int r = omp_get_thread_num();
            ar_call call = {workspace, r, ranks, isa, inputs, outputs[r], count};
            for (int i = 0; i < repeats; i++) collective(&call, resolved);
        }
    }
    return team_mismatch ? SB_ERR_INTERNAL : SB_OK;
}
