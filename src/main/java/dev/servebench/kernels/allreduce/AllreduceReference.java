package dev.servebench.kernels.allreduce;

import dev.servebench.kernels.nvfp4.Bf16;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * The obviously-correct Java definition of the three allreduce algorithms: one platform thread per rank,
 * a {@link CyclicBarrier} between the steps that depend on each other, plain arrays for inputs, outputs
 * and staging. Each element is summed in fp32 in exactly the order the native library uses (documented in
 * docs/kernels-allreduce.md) and rounded once to bf16, so results must match it bit for bit.
 */
public final class AllreduceReference {

    private AllreduceReference() {
    }

    /** The exact sum of every rank's element, in fp64, rounded once to bf16: the accuracy yardstick. */
    public static short[] expected(short[][] inputs) {
        int count = requireInputs(inputs);
        short[] out = new short[count];
        for (int i = 0; i < count; i++) {
            double sum = -0.0; // the additive identity: -0 + -0 stays -0
            for (short[] input : inputs) {
                sum += Bf16.toFloat(input[i]);
            }
            out[i] = roundToBf16(sum);
        }
        return out;
    }

    /**
     * Round to nearest even straight from fp64 (going through fp32 first could round twice). NaN becomes
     * the canonical quiet NaN; the native sums keep a NaN input's payload, so compare NaNs as NaNs.
     */
    static short roundToBf16(double value) {
        if (Double.isNaN(value)) {
            return (short) 0x7FC0;
        }
        if (value == 0 || Double.isInfinite(value)) {
            return Bf16.fromFloat((float) value);
        }
        // bf16 keeps 8 significant bits; below the smallest normal (2^-126) the step stays 2^-133.
        int exponent = Math.max(Math.getExponent(value), Float.MIN_EXPONENT);
        double step = Math.scalb(1.0, exponent - 7);
        double rounded = Math.rint(value / step) * step; // exact division and product: step is a power of two
        return Bf16.fromFloat((float) rounded); // exactly representable, or overflows to infinity as RNE does
    }

    /**
     * Every rank's output of one collective. AUTO is resolved with {@link AllreduceDispatch#resolve}.
     * Inputs are left untouched; in-place runs of the native library must give the same values.
     */
    public static short[][] allreduce(AllreduceAlgorithm algorithm, short[][] inputs) {
        int count = requireInputs(inputs);
        int ranks = AllreduceDispatch.requireRanks(inputs.length);
        if (count % MessageParts.ELEMENTS_PER_UNIT != 0) {
            throw new IllegalArgumentException("count = " + count + " bf16 elements is " + 2L * count
                    + " bytes; expected a multiple of 16 bytes");
        }
        AllreduceAlgorithm resolved = AllreduceDispatch.resolve(algorithm, ranks, 2L * count);
        Ranks state = new Ranks(inputs, count, new CyclicBarrier(ranks));
        List<Runnable> bodies = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            bodies.add(switch (resolved) {
                case ONE_SHOT -> () -> state.oneShot(rank);
                case TWO_SHOT -> () -> state.twoShot(rank);
                case RING -> () -> state.ring(rank);
                case AUTO -> throw new IllegalStateException("AUTO was resolved above");
            });
        }
        RankThreads.runAll("allreduce-reference", bodies, state.barrier::reset);
        return state.out;
    }

    private static int requireInputs(short[][] inputs) {
        if (inputs == null) {
            throw new NullPointerException("inputs is null; expected one bf16 array per rank");
        }
        AllreduceDispatch.requireRanks(inputs.length);
        for (int p = 0; p < inputs.length; p++) {
            if (inputs[p] == null) {
                throw new NullPointerException("inputs[" + p + "] is null; expected a bf16 array");
            }
            if (inputs[p].length != inputs[0].length) {
                throw new IllegalArgumentException("inputs[" + p + "] holds " + inputs[p].length
                        + " elements, inputs[0] " + inputs[0].length + "; expected equal lengths");
            }
        }
        return inputs[0].length;
    }

    /** Shared arrays of one collective; each method is one rank's part. */
    private record Ranks(short[][] in, short[][] out, short[][] stage16, float[][] stage32, int count,
            CyclicBarrier barrier) {

        Ranks(short[][] in, int count, CyclicBarrier barrier) {
            this(in, new short[in.length][count], new short[in.length][count], new float[in.length][count], count,
                    barrier);
        }

        int ranks() {
            return in.length;
        }

        void oneShot(int rank) {
            for (int i = 0; i < count; i++) {
                float acc = Bf16.toFloat(in[0][i]);
                for (int p = 1; p < ranks(); p++) {
                    acc += Bf16.toFloat(in[p][i]);
                }
                out[rank][i] = Bf16.fromFloat(acc);
            }
        }

        void twoShot(int rank) {
            int n = ranks();
            for (int i = begin(rank); i < end(rank); i++) {
                float acc = Bf16.toFloat(in[rank][i]);
                for (int k = 1; k < n; k++) {
                    acc += Bf16.toFloat(in[(rank + k) % n][i]);
                }
                stage16[rank][i] = Bf16.fromFloat(acc);
            }
            await();
            for (int p = 0; p < n; p++) {
                System.arraycopy(stage16[p], begin(p), out[rank], begin(p), end(p) - begin(p));
            }
        }

        /** NCCL ring indexing; chunk c ends up summed in the order c+1, c+2, ..., c+N (mod N). */
        void ring(int rank) {
            int n = ranks();
            int prev = Math.floorMod(rank - 1, n);
            for (int s = 0; s < n; s++) {
                int chunk = Math.floorMod(rank - 1 - s, n);
                for (int i = begin(chunk); i < end(chunk); i++) {
                    if (s == 0) {
                        stage16[rank][i] = in[rank][i];
                        continue;
                    }
                    float partial = s == 1 ? Bf16.toFloat(stage16[prev][i]) : stage32[prev][i];
                    float acc = partial + Bf16.toFloat(in[rank][i]);
                    if (s < n - 1) {
                        stage32[rank][i] = acc;
                    } else {
                        out[rank][i] = stage16[rank][i] = Bf16.fromFloat(acc);
                    }
                }
                await();
            }
            for (int t = 1; t < n; t++) {
                int chunk = Math.floorMod(rank - t, n);
                for (int i = begin(chunk); i < end(chunk); i++) {
                    out[rank][i] = stage16[prev][i];
                    if (t < n - 1) {
                        stage16[rank][i] = out[rank][i]; // forwarded to the next rank
                    }
                }
                await();
            }
        }

        private int begin(int part) {
            return (int) MessageParts.begin(count, ranks(), part);
        }

        private int end(int part) {
            return (int) MessageParts.end(count, ranks(), part);
        }

        private void await() {
            try {
                barrier.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("allreduce reference rank interrupted", e);
            } catch (BrokenBarrierException e) {
                throw new IllegalStateException("another allreduce reference rank failed", e);
            }
        }
    }
}
