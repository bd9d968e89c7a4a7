package dev.servebench.kernels.allreduce;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The "java" benchmark backend: the native library's algorithms, flag protocol and summation orders in
 * plain Java, on persistent rank threads (one platform thread per rank, started once) so that a
 * measurement sees collectives, not thread start-up. Results are bitwise equal to the native library's
 * and to {@link AllreduceReference} for the same algorithm. Not thread-safe: one {@code run} at a time.
 */
public final class JavaAllreduce implements AutoCloseable {

    /** The ring moves pieces of at most this many elements through its FIFO (native: RING_PIECE). */
    private static final int RING_PIECE = 65536;

    private final int ranks;
    private final long maxBytes;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] stage16;
    /** Per rank: RING_SLOTS FIFO slots of {@code slotBytes}, holding a ring piece as fp32 or bf16. */
    private final MemorySegment[] fifo;
    private final long slotBytes;
    private final RankSignals signals;
    private final CyclicBarrier start;
    private final CyclicBarrier done;
    private final Thread[] workers;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The collective the workers run next; null tells them to exit. Published by the start barrier. */
    private Job job;
    private boolean broken;
    private boolean closed;

    private record Job(AllreduceAlgorithm algorithm, MemorySegment[] inputs, MemorySegment[] outputs, long count,
            int repeats) {
    }

    /** Starts {@code ranks} threads and allocates staging for messages up to {@code maxBytes} per rank. */
    public JavaAllreduce(int ranks, long maxBytes) {
        this.ranks = AllreduceDispatch.requireRanks(ranks);
        this.maxBytes = AllreduceBuffers.requireMaxBytes(maxBytes);
        this.stage16 = new MemorySegment[ranks];
        this.fifo = new MemorySegment[ranks];
        this.slotBytes = 4 * Math.min(RING_PIECE, maxBytes / 2);
        for (int r = 0; r < ranks; r++) {
            stage16[r] = arena.allocate(maxBytes, 64);
            fifo[r] = arena.allocate(RankSignals.RING_SLOTS * slotBytes, 64);
        }
        this.signals = new RankSignals(ranks);
        this.start = new CyclicBarrier(ranks + 1);
        this.done = new CyclicBarrier(ranks + 1);
        this.workers = new Thread[ranks];
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            workers[r] = Thread.ofPlatform().daemon().name("java-allreduce-rank-" + r).start(() -> work(rank));
        }
    }

    public int ranks() {
        return ranks;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /**
     * {@code repeats} collectives of {@code count} bf16 elements back to back; in place when
     * {@code outputs[r]} is {@code inputs[r]}. Heap or native segments.
     */
    public synchronized void run(MemorySegment[] inputs, MemorySegment[] outputs, long count,
            AllreduceAlgorithm algorithm, int repeats) {
        if (closed) {
            throw new IllegalStateException("this JavaAllreduce is closed");
        }
        if (broken) {
            throw new IllegalStateException("a previous collective failed; this JavaAllreduce is unusable");
        }
        AllreduceBuffers.requireCount(count, maxBytes);
        AllreduceBuffers.requireBuffers(ranks, inputs, outputs, count, false);
        requireAccessibleByRanks(inputs, "inputs");
        requireAccessibleByRanks(outputs, "outputs");
        AllreduceBuffers.requireRepeats(repeats);
        AllreduceAlgorithm resolved = AllreduceDispatch.resolve(algorithm, ranks, 2 * count);
        job = new Job(resolved, inputs.clone(), outputs.clone(), count, repeats);
        if (!await(start) || !await(done) || failure.get() != null) {
            broken = true;
            Throwable cause = failure.get();
            throw new IllegalStateException("java allreduce " + resolved + " failed", cause);
        }
    }

    private void requireAccessibleByRanks(MemorySegment[] buffers, String name) {
        for (int r = 0; r < buffers.length; r++) {
            if (!buffers[r].isAccessibleBy(workers[0])) {
                throw new IllegalArgumentException(name + "[" + r + "] belongs to a confined arena; expected memory "
                        + "the rank threads may use (Arena.ofShared, global, auto, or a heap array)");
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        job = null;
        if (broken) {
            // Interrupting also reaches a worker that has not arrived at the barrier yet: its await fails.
            for (Thread worker : workers) {
                worker.interrupt();
            }
        } else {
            await(start);
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        arena.close();
    }

    private void work(int rank) {
        Bf16Accumulator accumulator = new Bf16Accumulator();
        while (await(start)) {
            Job current = job;
            if (current == null) {
                return;
            }
            try {
                Rank self = new Rank(rank, current, accumulator);
                for (int i = 0; i < current.repeats(); i++) {
                    switch (current.algorithm()) {
                        case ONE_SHOT -> self.oneShot();
                        case TWO_SHOT -> self.twoShot();
                        case RING -> self.ring();
                        case AUTO -> throw new IllegalStateException("AUTO is resolved before the ranks start");
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                signals.abort();
            }
            if (!await(done)) {
                return;
            }
        }
    }

    private boolean await(CyclicBarrier barrier) {
        try {
            barrier.await();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            barrier.reset();
            return false;
        } catch (BrokenBarrierException e) {
            return false;
        }
    }

    /** One rank's part of a collective; the same steps as native/src/allreduce.c. */
    private final class Rank {
        private final int rank;
        private final Job job;
        private final Bf16Accumulator accumulator;
        private final MemorySegment out;

        Rank(int rank, Job job, Bf16Accumulator accumulator) {
            this.rank = rank;
            this.job = job;
            this.accumulator = accumulator;
            this.out = job.outputs()[rank];
        }

        void oneShot() {
            boolean inPlace = sameStart(out, job.inputs()[rank]);
            MemorySegment target = inPlace ? stage16[rank] : out;
            signals.barrier(rank);
            accumulator.sum(null, job.inputs(), ranks, null, target, null, 0, job.count());
            signals.barrier(rank); // peers are done reading this rank's input
            if (inPlace) {
                MemorySegment.copy(target, 0, out, 0, 2 * job.count());
            }
        }

        void twoShot() {
            MemorySegment[] rotated = new MemorySegment[ranks];
            for (int k = 0; k < ranks; k++) {
                rotated[k] = job.inputs()[(rank + k) % ranks];
            }
            signals.barrier(rank);
            accumulator.sum(null, rotated, ranks, null, out, stage16[rank], begin(rank), end(rank));
            signals.barrier(rank);
            for (int k = 1; k < ranks; k++) {
                int p = (rank + k) % ranks;
                MemorySegment.copy(stage16[p], 2 * begin(p), out, 2 * begin(p), 2 * (end(p) - begin(p)));
            }
        }

        /**
         * The native ring's rounds: round j runs every reduce-scatter and all-gather step on piece j of
         * each chunk, passing pieces through the FIFOs.
         */
        void ring() {
            signals.barrier(rank);
            long longest = end(ranks - 1) - begin(ranks - 1);
            for (long offset = 0; offset < longest; offset += RING_PIECE) {
                for (int s = 0; s < ranks; s++) {
                    int chunk = Math.floorMod(rank - 1 - s, ranks);
                    long begin = begin(chunk) + offset;
                    if (begin < end(chunk)) {
                        reduceStep(s, begin, Math.min(begin + RING_PIECE, end(chunk)));
                    }
                }
                for (int t = 1; t < ranks; t++) {
                    int chunk = Math.floorMod(rank - t, ranks);
                    long begin = begin(chunk) + offset;
                    if (begin < end(chunk)) {
                        gatherStep(t, begin, Math.min(begin + RING_PIECE, end(chunk)));
                    }
                }
            }
        }

        private void reduceStep(int s, long begin, long end) {
            MemorySegment own = job.inputs()[rank].asSlice(2 * begin, 2 * (end - begin));
            if (s == 0) {
                MemorySegment.copy(own, 0, slot(rank, signals.ringClaim(rank)), 0, own.byteSize());
                signals.ringPublish(rank);
                return;
            }
            MemorySegment received = slot(Math.floorMod(rank - 1, ranks), signals.ringReceive(rank));
            MemorySegment sent = slot(rank, signals.ringClaim(rank));
            boolean last = s == ranks - 1;
            MemorySegment out32 = last ? null : sent;
            MemorySegment out16 = last ? out.asSlice(2 * begin, 2 * (end - begin)) : null;
            MemorySegment forward16 = last ? sent : null;
            if (s == 1) {
                accumulator.sum(null, new MemorySegment[] {received, own}, 2, out32, out16, forward16, 0, end - begin);
            } else {
                accumulator.sum(received, new MemorySegment[] {own}, 1, out32, out16, forward16, 0, end - begin);
            }
            signals.ringRelease(rank);
            signals.ringPublish(rank);
        }

        private void gatherStep(int t, long begin, long end) {
            long bytes = 2 * (end - begin);
            MemorySegment received = slot(Math.floorMod(rank - 1, ranks), signals.ringReceive(rank));
            MemorySegment.copy(received, 0, out, 2 * begin, bytes);
            if (t < ranks - 1) {
                MemorySegment.copy(received, 0, slot(rank, signals.ringClaim(rank)), 0, bytes);
                signals.ringRelease(rank);
                signals.ringPublish(rank);
            } else {
                signals.ringRelease(rank);
            }
        }

        private MemorySegment slot(int owner, int slot) {
            return fifo[owner].asSlice(slot * slotBytes, slotBytes);
        }

        private long begin(int part) {
            return MessageParts.begin(job.count(), ranks, part);
        }

        private long end(int part) {
            return MessageParts.end(job.count(), ranks, part);
        }
    }

    /** In place means outputs[r] starts where inputs[r] does (the validation allows nothing in between). */
    private static boolean sameStart(MemorySegment a, MemorySegment b) {
        return a.asSlice(0, 0).equals(b.asSlice(0, 0));
    }
}
