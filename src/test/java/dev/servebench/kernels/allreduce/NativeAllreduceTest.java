package dev.servebench.kernels.allreduce;

import static dev.servebench.kernels.allreduce.AllreduceFixtures.assertBitwise;
import static dev.servebench.kernels.allreduce.AllreduceFixtures.assertWithinOneUlp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The native library (every build variant) against the Java reference, algorithm by algorithm. */
/* A rank that never arrives would hang the build; fail instead (the stuck threads are left behind). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NativeAllreduceTest {

    private static final AllreduceAlgorithm[] ALGORITHMS = {
        AllreduceAlgorithm.ONE_SHOT, AllreduceAlgorithm.TWO_SHOT, AllreduceAlgorithm.RING};

    static Stream<Arguments> matrix() {
        List<Arguments> cases = new ArrayList<>();
        for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
            for (int ranks : new int[] {2, 4, 8}) {
                for (AllreduceAlgorithm algorithm : ALGORITHMS) {
                    for (int count : AllreduceFixtures.COUNTS) {
                        cases.add(Arguments.of(variant, ranks, algorithm, count));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} N={1} {2} count={3}")
    @MethodSource("matrix")
    void matchesTheReferenceBitForBitInAndOutOfPlace(KernelLibrary.Variant variant, int ranks,
            AllreduceAlgorithm algorithm, int count) {
        NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load(variant));
        short[][] inputs = AllreduceFixtures.inputs(ranks, count);
        short[] reference = AllreduceFixtures.reference(algorithm, ranks, count)[0];
        String what = variant + " " + algorithm + " N=" + ranks + " count=" + count;
        try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(ranks, 2L * count)) {
            MemorySegment[] in = AllreduceFixtures.segments(arena, inputs);
            MemorySegment[] out = AllreduceFixtures.zeroed(arena, ranks, count);
            allreduce.run(workspace, algorithm, in, out, count, 1);
            assertBitwise(AllreduceFixtures.read(out, count), reference, what + " out of place");
            assertThat(AllreduceFixtures.read(in, count)).as("%s: inputs untouched out of place", what)
                    .isDeepEqualTo(inputs);

            allreduce.run(workspace, algorithm, in, in, count, 1);
            assertBitwise(AllreduceFixtures.read(in, count), reference, what + " in place");
        }
        assertWithinOneUlp(reference, AllreduceFixtures.expected(ranks, count), ranks, what + " vs the fp64 sum");
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void repeatsInPlaceIterateAndRepeatsOutOfPlaceRecomputeTheSameSum(KernelLibrary.Variant variant) {
        NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load(variant));
        int ranks = 4;
        int count = 296;
        for (AllreduceAlgorithm algorithm : ALGORITHMS) {
            short[][] iterated = AllreduceFixtures.inputs(ranks, count);
            for (int i = 0; i < 3; i++) {
                iterated = AllreduceReference.allreduce(algorithm, iterated);
            }
            try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(ranks, 2L * count)) {
                MemorySegment[] in = AllreduceFixtures.segments(arena, AllreduceFixtures.inputs(ranks, count));
                MemorySegment[] out = AllreduceFixtures.zeroed(arena, ranks, count);
                allreduce.run(workspace, algorithm, in, out, count, 3);
                assertBitwise(AllreduceFixtures.read(out, count), AllreduceFixtures.reference(algorithm, ranks, count)[0],
                        variant + " " + algorithm + " 3 repeats out of place");
                allreduce.run(workspace, algorithm, in, in, count, 3);
                assertBitwise(AllreduceFixtures.read(in, count), iterated[0], variant + " " + algorithm
                        + " 3 repeats in place");
            }
        }
    }

    @Test
    void autoRunsWhatTheDispatchChooses() {
        NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load());
        // 12 KiB at N=8 is one-shot; 1 MiB at N=4 is past the 512 KiB one-shot limit: two-shot.
        int[][] shapes = {{8, 6144}, {4, 524_328}};
        for (int[] shape : shapes) {
            int ranks = shape[0];
            int count = shape[1];
            try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(ranks, 2L * count)) {
                MemorySegment[] in = AllreduceFixtures.segments(arena, AllreduceFixtures.inputs(ranks, count));
                MemorySegment[] out = AllreduceFixtures.zeroed(arena, ranks, count);
                allreduce.run(workspace, AllreduceAlgorithm.AUTO, in, out, count, 1);
                AllreduceAlgorithm chosen = AllreduceDispatch.choose(ranks, 2L * count,
                        AllreduceDispatch.DEFAULT_CUSTOM_MAX_BYTES);
                assertBitwise(AllreduceFixtures.read(out, count), AllreduceFixtures.reference(chosen, ranks, count)[0],
                        "AUTO at N=" + ranks + " count=" + count + " (" + chosen + ")");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void ranksCalledFromTheirOwnThreadsAgreeWithTheReference(KernelLibrary.Variant variant) {
        NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load(variant));
        int ranks = 4;
        int count = 6144;
        for (AllreduceAlgorithm algorithm : ALGORITHMS) {
            try (Arena arena = Arena.ofShared(); AllreduceWorkspace workspace = allreduce.workspace(ranks, 2L * count)) {
                MemorySegment[] in = AllreduceFixtures.segments(arena, AllreduceFixtures.inputs(ranks, count));
                MemorySegment[] out = AllreduceFixtures.zeroed(arena, ranks, count);
                List<Runnable> bodies = new ArrayList<>();
                for (int r = 0; r < ranks; r++) {
                    int rank = r;
                    // Rank 1 works in place, the others out of place: each rank decides for itself.
                    bodies.add(() -> allreduce.runRank(workspace, rank, algorithm, in, rank == 1 ? in[1] : out[rank],
                            count));
                }
                RankThreads.runAll("test-rank", bodies, () -> { });
                out[1] = in[1];
                assertBitwise(AllreduceFixtures.read(out, count), AllreduceFixtures.reference(algorithm, ranks, count)[0],
                        variant + " " + algorithm + " via sb_allreduce_bf16_rank");
            }
        }
    }
}
