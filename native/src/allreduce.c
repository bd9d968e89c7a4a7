/*
 * Tensor-parallel bf16 sum-allreduce over shared memory (docs/kernels-allreduce.md: algorithms, exact
 * summation orders, the dispatch table). N ranks are N threads; rank p's input is read by its peers
 * directly, as IPC-registered GPU buffers are in vLLM's custom allreduce. The workspace layout and the flag
 * protocol are in allreduce_workspace.h.
 */
#include <omp.h>
#include "allreduce_workspace.h"
#include "allreduce_sum.h"

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
        if (p != c->rank) wait_at_least(control_of(c->ws, c->rank), &control_of(c->ws, p)->progress.value, progress);
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
 * (r-1-s) mod N. Step 0 sends its own chunk (bf16); step s receives the previous rank's partial, adds its
 * input and sends the new partial (fp32, so there is still one rounding); step N-1 completes chunk r,
 * rounds it to bf16 into out and sends it. Chunk c is therefore summed in the order c+1, c+2, ..., c+N
 * (mod N). All-gather step t (1..N-1): rank r receives chunk (r-t) mod N into out and, except in the last
 * step, forwards it. Like NCCL, the message is moved in rounds: round j runs every step on piece j (up to
 * RING_PIECE elements) of each chunk, so the FIFO never needs more than a few slots (a rank publishes at
 * most one piece more than it has received; 8 slots rule out a circular wait) and a piece is read by the
 * next rank while still in cache. Only rank r reads its input, so in place needs no staging copy. */
static void ring_step(const ar_call *c, int s, int64_t begin, int64_t end) {
    void *ws = c->ws;
    int r = c->rank, n = c->ranks;
    const uint16_t *own = c->inputs[r] + begin;
    if (s == 0) {
        memcpy(ring_claim(ws, r, n), own, (size_t)(end - begin) * 2);
        ring_publish(ws, r, n);
        return;
    }
    const void *received = ring_receive(ws, r, n);
    void *sent = ring_claim(ws, r, n);
    sb_ar_sum_job job = {.sources = 1, .source = {own}};
    if (s == 1) {
        job.sources = 2;
        job.source[0] = received;
        job.source[1] = own;
    } else {
        job.partial = received;
    }
    if (s < n - 1) {
        job.out32 = sent;
    } else {
        job.out16[0] = c->out + begin;
        job.out16[1] = sent;
    }
    sb_ar_sum(c->isa, &job, 0, end - begin);
    ring_release(ws, r);
    ring_publish(ws, r, n);
}

static void ring_gather_step(const ar_call *c, int t, int64_t begin, int64_t end) {
    void *ws = c->ws;
    int r = c->rank, n = c->ranks;
    const uint16_t *received = ring_receive(ws, r, n);
    int forward = t < n - 1;
    copy_to_two(c->out + begin, forward ? ring_claim(ws, r, n) : NULL, received, end - begin);
    ring_release(ws, r);
    if (forward) ring_publish(ws, r, n);
}

static void ring(const ar_call *c) {
    int r = c->rank, n = c->ranks;
    /* The barrier keeps this collective's FIFO and stage16 writes away from a peer still finishing the
     * previous collective (a two-shot gather reads stage16). */
    barrier(c->ws, r, n);
    int64_t longest = part_end(c->count, n, n - 1) - part_begin(c->count, n, n - 1); /* the last chunk */
    for (int64_t offset = 0; offset < longest; offset += RING_PIECE) {
        for (int s = 0; s < n; s++) {
            int chunk = mod(r - 1 - s, n);
            int64_t begin = part_begin(c->count, n, chunk) + offset, end = part_end(c->count, n, chunk);
            if (begin < end) ring_step(c, s, begin, begin + RING_PIECE < end ? begin + RING_PIECE : end);
        }
        for (int t = 1; t < n; t++) {
            int chunk = mod(r - t, n);
            int64_t begin = part_begin(c->count, n, chunk) + offset, end = part_end(c->count, n, chunk);
            if (begin < end) ring_gather_step(c, t, begin, begin + RING_PIECE < end ? begin + RING_PIECE : end);
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

/* omp_get_num_procs: the CPUs this process may run on (its affinity mask). */
static uint64_t spin_limit(int32_t ranks) {
    return ranks > omp_get_num_procs() ? AR_SPINS_OVERSUBSCRIBED : AR_SPINS_DEDICATED;
}

int32_t sb_allreduce_bf16_rank(void *workspace, int32_t rank, int32_t ranks, int32_t algorithm,
                               const uint16_t *const *inputs, uint16_t *out, int64_t count) {
    if (!valid_shared(workspace, ranks, algorithm, inputs, count) || rank < 0 || rank >= ranks ||
        !valid_output(rank, ranks, inputs, out, count)) {
        return SB_ERR_ARGUMENT;
    }
    control_of(workspace, rank)->spin_limit = spin_limit(ranks);
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
    uint64_t spins = spin_limit(ranks);
    int team_mismatch = 0;
#pragma omp parallel num_threads(ranks)
    {
        /* All threads see the same team size, so either every rank runs or none does. */
        if (omp_get_num_threads() != ranks) {
            if (omp_get_thread_num() == 0) team_mismatch = 1;
        } else {
            int r = omp_get_thread_num();
            control_of(workspace, r)->spin_limit = spins;
            ar_call call = {workspace, r, ranks, isa, inputs, outputs[r], count};
            for (int i = 0; i < repeats; i++) collective(&call, resolved);
        }
    }
    return team_mismatch ? SB_ERR_INTERNAL : SB_OK;
}
