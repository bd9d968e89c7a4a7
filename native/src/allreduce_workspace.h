/*
 * The allreduce workspace shared by the ranks and the flag protocol on it (see allreduce.c).
 *
 * Workspace (caller-owned, 64-byte aligned):
 *   [header line][control block of rank 0 .. N-1][staging of rank 0 .. N-1]
 * A control block holds the rank's private sequence counters and the flags written into it (barrier
 * arrivals and ring publications by peers, one-shot progress and ring consumption by the rank itself),
 * every flag on its own cache line. Flags only ever grow (epochs and counts), so nothing is reset between
 * collectives and a waiter tests "flag >= expected": a fast peer that has already moved on still
 * satisfies the wait. Staging per rank: stage16 (bf16, max_bytes, indexed by element like the message:
 * two-shot slices, one-shot in-place slots) and the ring FIFO (RING_SLOTS slots of up to RING_PIECE fp32).
 */
#ifndef SB_ALLREDUCE_WORKSPACE_H
#define SB_ALLREDUCE_WORKSPACE_H

#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include "sb_internal.h"

#define AR_LINE 64
#define AR_MAGIC UINT64_C(0x5342414c4c524431) /* "SBALLRD1" */
#define AR_MIN_RANKS 2
#define AR_MAX_RANKS 8
#define AR_DEFAULT_CUSTOM_MAX_BYTES (INT64_C(8) << 20) /* vLLM max_size default, used by SB_AR_AUTO */
#define AR_MAX_BYTES_LIMIT (INT64_C(1) << 40)         /* keeps every size computation far from overflow */
/* Spins before a waiter starts yielding. With a CPU per rank, enough to cover a peer on another core
 * (~0.1-1 us); with more ranks than CPUs (8 ranks on 2 cores) the rank waited for is usually not running,
 * so hand it the CPU almost at once (measured: 2-4x lower latency at N = 4 and 8 on 2 cores). */
#define AR_SPINS_DEDICATED 256
#define AR_SPINS_OVERSUBSCRIBED 16

typedef struct {
    _Alignas(AR_LINE) _Atomic uint64_t value;
} ar_flag;

typedef struct {
    /* Written and read by the owning rank only: where it is in the shared flag sequences. */
    _Alignas(AR_LINE) uint64_t barrier_epoch;
    uint64_t ring_published;
    uint64_t ring_received;
    uint64_t blocks_done;
    uint64_t spin_limit; /* AR_SPINS_DEDICATED or AR_SPINS_OVERSUBSCRIBED, set by the rank per call */
    ar_flag arrived[AR_MAX_RANKS]; /* arrived[p] = the last barrier epoch rank p has reached */
    ar_flag ring_ready;            /* publications of the previous rank in the ring */
    ar_flag ring_consumed;         /* ring pieces this rank has finished reading (read by the previous rank) */
    ar_flag progress;              /* one-shot blocks this rank has summed (written by the rank itself) */
} ar_control;

typedef struct {
    _Alignas(AR_LINE) uint64_t magic;
    int64_t ranks;
    int64_t max_bytes;
    int64_t stage16_bytes; /* per rank */
    int64_t slot_bytes;    /* one ring FIFO slot */
} ar_header;

_Static_assert(sizeof(ar_header) == AR_LINE, "header is one cache line");
_Static_assert(sizeof(ar_flag) == AR_LINE, "one flag per cache line");

static inline int64_t round_up_line(int64_t bytes) { return (bytes + AR_LINE - 1) & ~(int64_t)(AR_LINE - 1); }

/* The ring moves pieces of up to RING_PIECE elements through a FIFO of RING_SLOTS slots per rank: 8 slots
 * of 256 KiB (fp32) = 2 MiB, the shape of NCCL's FIFO (NCCL_STEPS = 8, a few hundred KiB per step). */
enum { RING_PIECE = 65536, RING_SLOTS = 8 };

static inline int64_t stage16_bytes(int64_t max_bytes) { return round_up_line(max_bytes); }
/* A slot holds a piece as fp32 (a partial sum) or bf16; no piece is longer than a whole message. */
static inline int64_t slot_bytes(int64_t max_bytes) {
    int64_t elements = max_bytes / 2 < RING_PIECE ? max_bytes / 2 : RING_PIECE;
    return round_up_line(elements * 4);
}

static inline ar_header *header_of(void *ws) { return (ar_header *)ws; }
static inline ar_control *control_of(void *ws, int rank) {
    return (ar_control *)((char *)ws + sizeof(ar_header)) + rank;
}
static inline char *staging_of(void *ws, int rank) {
    const ar_header *h = header_of(ws);
    return (char *)ws + sizeof(ar_header) + h->ranks * (int64_t)sizeof(ar_control) +
           rank * (h->stage16_bytes + RING_SLOTS * h->slot_bytes);
}
static inline uint16_t *stage16_of(void *ws, int rank) { return (uint16_t *)staging_of(ws, rank); }
/* Ring FIFO slot for publication number k (counted from 0 since init) of `rank`. */
static inline void *slot_of(void *ws, int rank, uint64_t k) {
    const ar_header *h = header_of(ws);
    return staging_of(ws, rank) + h->stage16_bytes + (int64_t)(k % RING_SLOTS) * h->slot_bytes;
}

static inline int valid_ranks(int32_t ranks) { return ranks >= AR_MIN_RANKS && ranks <= AR_MAX_RANKS; }
static inline int mod(int a, int n) { return ((a % n) + n) % n; }

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline void wait_at_least(const ar_control *waiter, _Atomic uint64_t *flag, uint64_t expected) {
    uint64_t spins = 0;
    while (atomic_load_explicit(flag, memory_order_acquire) < expected) {
        if (spins < waiter->spin_limit) {
            spins++;
            cpu_relax();
        } else {
            sched_yield();
        }
    }
}

/* start_sync / end_sync: tell every rank (self included) this rank reached the next epoch, then wait
 * until every rank has. Release/acquire makes all writes before the barrier visible after it. */
static inline void barrier(void *ws, int rank, int ranks) {
    ar_control *self = control_of(ws, rank);
    uint64_t epoch = ++self->barrier_epoch;
    for (int p = 0; p < ranks; p++) {
        atomic_store_explicit(&control_of(ws, p)->arrived[rank].value, epoch, memory_order_release);
    }
    for (int p = 0; p < ranks; p++) wait_at_least(self, &self->arrived[p].value, epoch);
}

/* Ring FIFO: publication k of rank r goes to slot k % RING_SLOTS of r's FIFO and is the k-th piece rank
 * r+1 receives. Before reusing a slot the sender waits until the receiver has released the piece that
 * was in it (credits, as NCCL's FIFO steps); the receiver releases a piece once it has read it. */
static inline void *ring_claim(void *ws, int rank, int ranks) {
    ar_control *self = control_of(ws, rank);
    uint64_t k = self->ring_published;
    if (k >= RING_SLOTS) wait_at_least(self, &control_of(ws, mod(rank + 1, ranks))->ring_consumed.value, k - RING_SLOTS + 1);
    return slot_of(ws, rank, k);
}

static inline void ring_publish(void *ws, int rank, int ranks) {
    uint64_t count = ++control_of(ws, rank)->ring_published;
    atomic_store_explicit(&control_of(ws, mod(rank + 1, ranks))->ring_ready.value, count, memory_order_release);
}

static inline const void *ring_receive(void *ws, int rank, int ranks) {
    ar_control *self = control_of(ws, rank);
    uint64_t k = self->ring_received;
    wait_at_least(self, &self->ring_ready.value, k + 1);
    return slot_of(ws, mod(rank - 1, ranks), k);
}

static inline void ring_release(void *ws, int rank) {
    ar_control *self = control_of(ws, rank);
    atomic_store_explicit(&self->ring_consumed.value, ++self->ring_received, memory_order_release);
}

#endif
