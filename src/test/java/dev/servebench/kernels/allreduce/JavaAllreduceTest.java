package dev.servebench.kernels.allreduce;

import static dev.servebench.kernels.allreduce.AllreduceFixtures.assertBitwise;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Java backend against the reference: same algorithm, same bits. */
/* A rank that never arrives would hang the build; fail instead (the stuck threads are left behind). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JavaAllreduceTest {

    private static final AllreduceAlgorithm[] ALGORITHMS = {
        AllreduceAlgorithm.ONE_SHOT, AllreduceAlgorithm.TWO_SHOT, AllreduceAlgorithm.RING};

    @ParameterizedTest(name = "N={0}")
    @ValueSource(ints = {2, 4, 8})
    void matchesTheReferenceInAndOutOfPlaceOnReusedThreads(int ranks) {
        int[] counts = {8, 296, 6144, 140_000}; // 140 000: more than one ring round (65536-element pieces)
        try (JavaAllreduce java = new JavaAllreduce(ranks, 2L * 140_000); Arena arena = Arena.ofShared()) {
            for (int count : counts) {
                for (AllreduceAlgorithm algorithm : ALGORITHMS) {
                    String what = "java " + algorithm + " N=" + ranks + " count=" + count;
                    short[] reference = AllreduceFixtures.reference(algorithm, ranks, count)[0];
                    MemorySegment[] in = AllreduceFixtures.segments(arena, AllreduceFixtures.inputs(ranks, count));
                    MemorySegment[] out = AllreduceFixtures.zeroed(arena, ranks, count);
                    java.run(in, out, count, algorithm, 1);
                    assertBitwise(AllreduceFixtures.read(out, count), reference, what + " out of place");
                    java.run(in, in, count, algorithm, 1);
                    assertBitwise(AllreduceFixtures.read(in, count), reference, what + " in place");
                }
            }
        }
    }

    @Test
    void repeatsInPlaceIterateAndHeapSegmentsWork() {
        int ranks = 3;
        int count = 296;
        try (JavaAllreduce java = new JavaAllreduce(ranks, 2L * count)) {
            for (AllreduceAlgorithm algorithm : ALGORITHMS) {
                short[][] iterated = AllreduceFixtures.inputs(ranks, count);
                for (int i = 0; i < 3; i++) {
                    iterated = AllreduceReference.allreduce(algorithm, iterated);
                }
                short[][] data = new short[ranks][];
                MemorySegment[] heap = new MemorySegment[ranks];
                for (int r = 0; r < ranks; r++) {
                    data[r] = AllreduceFixtures.inputs(ranks, count)[r].clone();
                    heap[r] = MemorySegment.ofArray(data[r]);
                }
                java.run(heap, heap, count, algorithm, 3);
                assertBitwise(data, iterated[0], "java " + algorithm + " 3 repeats in place on heap arrays");
            }
        }
    }

    @Test
    void autoRunsTheDispatchedAlgorithm() {
        int ranks = 8;
        int count = 6144; // 12 KiB at N=8: one-shot
        try (JavaAllreduce java = new JavaAllreduce(ranks, 2L * count); Arena arena = Arena.ofShared()) {
            MemorySegment[] in = AllreduceFixtures.segments(arena, AllreduceFixtures.inputs(ranks, count));
            MemorySegment[] out = AllreduceFixtures.zeroed(arena, ranks, count);
            java.run(in, out, count, AllreduceAlgorithm.AUTO, 1);
            assertBitwise(AllreduceFixtures.read(out, count),
                    AllreduceFixtures.reference(AllreduceAlgorithm.ONE_SHOT, ranks, count)[0], "java AUTO");
        }
    }

    @Test
    void buffersTheRankThreadsCannotReachAreRejected() {
        try (JavaAllreduce java = new JavaAllreduce(2, 16); Arena confined = Arena.ofConfined()) {
            MemorySegment[] in = AllreduceFixtures.zeroed(confined, 2, 8);
            MemorySegment[] out = {MemorySegment.ofArray(new short[8]), MemorySegment.ofArray(new short[8])};
            assertThatThrownBy(() -> java.run(in, out, 8, AllreduceAlgorithm.ONE_SHOT, 1))
                    .hasMessageContaining("inputs[0] belongs to a confined arena");
            java.run(out, out, 8, AllreduceAlgorithm.ONE_SHOT, 1); // still usable
        }
    }

    @Test
    void closedInstancesRefuseWorkAndCloseTwiceIsHarmless() {
        JavaAllreduce java = new JavaAllreduce(2, 16);
        assertThat(java.ranks()).isEqualTo(2);
        assertThat(java.maxBytes()).isEqualTo(16);
        java.close();
        java.close();
        MemorySegment[] buffers = {MemorySegment.ofArray(new short[8]), MemorySegment.ofArray(new short[8])};
        assertThatThrownBy(() -> java.run(buffers, buffers, 8, AllreduceAlgorithm.ONE_SHOT, 1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
}
