package dev.servebench.kernels.allreduce;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The flag protocol of the native allreduce, in Java: per rank, one flag per peer for barriers, one for
 * the ring predecessor's publications and one for the ring pieces the rank has consumed, each on its own
 * cache line; values only grow (epochs, counts), so nothing is reset between collectives and a wait is
 * "flag >= expected".
 * Release stores and acquire loads order the data written around them. Each rank's counters are
 * touched by that rank's thread only.
 */
final class RankSignals {

    /** 16 longs = 128 bytes: one flag per line, and no two flags in an adjacent-line prefetch pair. */
    private static final int STRIDE = 16;
    /**
     * Spins before yielding, as the native library: enough to cover a peer on another core when every
     * rank has a CPU; when ranks outnumber CPUs the rank waited for is usually not running, so yield soon.
     */
    private static final int SPINS_DEDICATED = 256;
    private static final int SPINS_OVERSUBSCRIBED = 16;
    private static final int EPOCH = 0;
    private static final int PUBLISHED = 1;
    private static final int RECEIVED = 2;
    /** Ring FIFO depth, as NCCL_STEPS; the native library uses the same. */
    static final int RING_SLOTS = 8;

    private final int ranks;
    private final AtomicLongArray flags;
    private final long[] counters;
    private final int spinsBeforeYield;
    private volatile boolean aborted;

    RankSignals(int ranks) {
        this.ranks = ranks;
        this.flags = new AtomicLongArray(ranks * (ranks + 2) * STRIDE);
        this.counters = new long[ranks * STRIDE];
        this.spinsBeforeYield = ranks > Runtime.getRuntime().availableProcessors() ? SPINS_OVERSUBSCRIBED
                : SPINS_DEDICATED;
    }

    /** start_sync / end_sync: announce the next epoch to every rank, then wait for every rank's. */
    void barrier(int rank) {
        long epoch = ++counters[rank * STRIDE + EPOCH];
        for (int p = 0; p < ranks; p++) {
            flags.setRelease(flag(p, rank), epoch);
        }
        for (int p = 0; p < ranks; p++) {
            waitAtLeast(flag(rank, p), epoch);
        }
    }

    /**
     * The FIFO slot (0..RING_SLOTS-1) of this rank's next publication, once the next rank has released the
     * piece published RING_SLOTS publications ago (credits).
     */
    int ringClaim(int rank) {
        long k = counters[rank * STRIDE + PUBLISHED];
        if (k >= RING_SLOTS) {
            waitAtLeast(flag((rank + 1) % ranks, ranks + 1), k - RING_SLOTS + 1);
        }
        return (int) (k % RING_SLOTS);
    }

    /** Publication k of rank r is the k-th piece rank r+1 receives. */
    void ringPublish(int rank) {
        long count = ++counters[rank * STRIDE + PUBLISHED];
        flags.setRelease(flag((rank + 1) % ranks, ranks), count);
    }

    /** Waits for the next piece from the previous rank; returns the slot of that rank's FIFO holding it. */
    int ringReceive(int rank) {
        long k = counters[rank * STRIDE + RECEIVED];
        waitAtLeast(flag(rank, ranks), k + 1);
        return (int) (k % RING_SLOTS);
    }

    /** The received piece has been read: its slot may be reused by the previous rank. */
    void ringRelease(int rank) {
        flags.setRelease(flag(rank, ranks + 1), ++counters[rank * STRIDE + RECEIVED]);
    }

    /** Releases every waiting rank with a {@link CancellationException}; the signals are unusable after. */
    void abort() {
        aborted = true;
    }

    /**
     * Flag {@code slot} in rank {@code owner}'s block: slots 0..N-1 are barrier arrivals, N the ring
     * publications it received, N+1 the ring pieces it consumed.
     */
    private int flag(int owner, int slot) {
        return (owner * (ranks + 2) + slot) * STRIDE;
    }

    private void waitAtLeast(int index, long expected) {
        int spins = 0;
        while (flags.getAcquire(index) < expected) {
            if (aborted) {
                throw new CancellationException("another allreduce rank failed");
            }
            if (spins < spinsBeforeYield) {
                spins++;
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
