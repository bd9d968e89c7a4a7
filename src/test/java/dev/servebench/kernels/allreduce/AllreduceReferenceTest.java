package dev.servebench.kernels.allreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.nvfp4.Bf16;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The documented summation orders, worked out by hand, and the fp64 yardstick. */
/* A rank that never arrives would hang the build; fail instead (the stuck threads are left behind). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AllreduceReferenceTest {

    private static final short BIG = Bf16.fromFloat(256f);
    private static final short TINY = Bf16.fromFloat(0x1p-17f); // below half an fp32 ulp of 256
    private static final short MINUS_BIG = Bf16.fromFloat(-256f);
    private static final short ZERO = 0;

    /**
     * Three ranks hold 256, 2^-17, -256 in every element; three units so that slice/chunk p is elements
     * 8p..8p+7. The fp32 sum is 2^-17 only when -256 and 256 meet before 2^-17 is added:
     * one-shot (0,1,2) -> 0 everywhere; two-shot slice r in order r, r+1, r+2: slice 2 (2,0,1) -> 2^-17;
     * ring chunk c in order c+1, c+2, c: chunk 1 (2,0,1) -> 2^-17.
     */
    private static short[][] orderProbe() {
        short[][] in = new short[3][24];
        Arrays.fill(in[0], BIG);
        Arrays.fill(in[1], TINY);
        Arrays.fill(in[2], MINUS_BIG);
        return in;
    }

    private static short[] slices(short first, short second, short third) {
        short[] out = new short[24];
        Arrays.fill(out, 0, 8, first);
        Arrays.fill(out, 8, 16, second);
        Arrays.fill(out, 16, 24, third);
        return out;
    }

    @Test
    void everyImplementationSumsInTheDocumentedOrder() {
        short[] oneShot = slices(ZERO, ZERO, ZERO);
        short[] twoShot = slices(ZERO, ZERO, TINY);
        short[] ring = slices(ZERO, TINY, ZERO);
        assertThat(AllreduceReference.expected(orderProbe())).containsOnly(TINY);
        assertReference(AllreduceAlgorithm.ONE_SHOT, oneShot);
        assertReference(AllreduceAlgorithm.TWO_SHOT, twoShot);
        assertReference(AllreduceAlgorithm.RING, ring);
        try (JavaAllreduce java = new JavaAllreduce(3, 48); Arena arena = Arena.ofShared()) {
            for (AllreduceAlgorithm algorithm : new AllreduceAlgorithm[] {
                AllreduceAlgorithm.ONE_SHOT, AllreduceAlgorithm.TWO_SHOT, AllreduceAlgorithm.RING}) {
                MemorySegment[] in = AllreduceFixtures.segments(arena, orderProbe());
                java.run(in, in, 24, algorithm, 1);
                AllreduceFixtures.assertBitwise(AllreduceFixtures.read(in, 24), expectedFor(algorithm, oneShot, twoShot, ring),
                        "java " + algorithm);
            }
        }
        for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
            NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load(variant));
            try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(3, 48)) {
                for (AllreduceAlgorithm algorithm : new AllreduceAlgorithm[] {
                    AllreduceAlgorithm.ONE_SHOT, AllreduceAlgorithm.TWO_SHOT, AllreduceAlgorithm.RING}) {
                    MemorySegment[] in = AllreduceFixtures.segments(arena, orderProbe());
                    MemorySegment[] out = AllreduceFixtures.zeroed(arena, 3, 24);
                    allreduce.run(workspace, algorithm, in, out, 24, 1);
                    AllreduceFixtures.assertBitwise(AllreduceFixtures.read(out, 24),
                            expectedFor(algorithm, oneShot, twoShot, ring), variant + " " + algorithm);
                }
            }
        }
    }

    private static short[] expectedFor(AllreduceAlgorithm algorithm, short[] oneShot, short[] twoShot, short[] ring) {
        return switch (algorithm) {
            case ONE_SHOT -> oneShot;
            case TWO_SHOT -> twoShot;
            case RING -> ring;
            case AUTO -> throw new IllegalArgumentException("no fixed order for AUTO");
        };
    }

    private static void assertReference(AllreduceAlgorithm algorithm, short[] expected) {
        AllreduceFixtures.assertBitwise(AllreduceReference.allreduce(algorithm, orderProbe()), expected,
                "reference " + algorithm);
    }

    @Test
    void theAlgorithmsReallyDifferOnTheTestData() {
        // Otherwise "bitwise equal to the reference of the same algorithm" could not tell the orders apart.
        for (int ranks : new int[] {3, 4, 8}) {
            for (int count : new int[] {296, 6144}) {
                short[] oneShot = AllreduceFixtures.reference(AllreduceAlgorithm.ONE_SHOT, ranks, count)[0];
                short[] twoShot = AllreduceFixtures.reference(AllreduceAlgorithm.TWO_SHOT, ranks, count)[0];
                short[] ring = AllreduceFixtures.reference(AllreduceAlgorithm.RING, ranks, count)[0];
                assertThat(oneShot).as("N=%d count=%d", ranks, count).isNotEqualTo(twoShot);
                assertThat(twoShot).as("N=%d count=%d", ranks, count).isNotEqualTo(ring);
                assertThat(ring).as("N=%d count=%d", ranks, count).isNotEqualTo(oneShot);
            }
        }
        AllreduceFixtures.assertHasSpecials(AllreduceFixtures.expected(4, 6144));
    }

    @Test
    void everyRankOfTheReferenceEndsWithTheSameBits() {
        for (AllreduceAlgorithm algorithm : new AllreduceAlgorithm[] {
            AllreduceAlgorithm.ONE_SHOT, AllreduceAlgorithm.TWO_SHOT, AllreduceAlgorithm.RING}) {
            short[][] out = AllreduceFixtures.reference(algorithm, 8, 6144);
            AllreduceFixtures.assertBitwise(out, out[0], "reference " + algorithm + " N=8");
            AllreduceFixtures.assertWithinOneUlp(out[0], AllreduceFixtures.expected(8, 6144), 8, algorithm + " vs fp64");
        }
    }

    @Test
    void expectedRoundsTheExactSumOnceToNearestEven() {
        short one = Bf16.fromFloat(1f);
        short half = Bf16.fromFloat(0x1p-8f); // half a bf16 ulp of 1
        short tiny = Bf16.fromFloat(0x1p-30f);
        assertThat(AllreduceReference.expected(new short[][] {{one}, {half}})[0]).isEqualTo(one);
        assertThat(AllreduceReference.expected(new short[][] {{(short) 0x3F81}, {half}})[0]).isEqualTo((short) 0x3F82);
        // 1 + 2^-8 + 2^-30 is just above the tie: rounds up. Through fp32 the 2^-30 would vanish first.
        assertThat(AllreduceReference.expected(new short[][] {{one}, {half}, {tiny}})[0]).isEqualTo((short) 0x3F81);
        assertThat(AllreduceReference.expected(new short[][] {{(short) 0x7F7F}, {(short) 0x7F7F}})[0])
                .isEqualTo((short) 0x7F80);
        assertThat(AllreduceReference.expected(new short[][] {{(short) 0x0001}, {(short) 0x0002}})[0])
                .as("subnormals add exactly").isEqualTo((short) 0x0003);
        assertThat(AllreduceReference.expected(new short[][] {{(short) 0x8000}, {(short) 0x8000}})[0])
                .isEqualTo((short) 0x8000);
        assertThat(AllreduceFixtures.isNaN(AllreduceReference.expected(new short[][] {{(short) 0x7FC1}, {one}})[0]))
                .isTrue();
    }

    @Test
    void rejectsInputsItCannotReduce() {
        assertThatThrownBy(() -> AllreduceReference.expected(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("inputs is null");
        assertThatThrownBy(() -> AllreduceReference.allreduce(AllreduceAlgorithm.RING, new short[1][8]))
                .hasMessageContaining("ranks = 1; expected 2..8");
        assertThatThrownBy(() -> AllreduceReference.allreduce(AllreduceAlgorithm.RING, new short[][] {new short[8],
            new short[16]})).hasMessageContaining("inputs[1] holds 16 elements, inputs[0] 8");
        assertThatThrownBy(() -> AllreduceReference.allreduce(AllreduceAlgorithm.RING, new short[2][12]))
                .hasMessageContaining("24 bytes; expected a multiple of 16 bytes");
        assertThatThrownBy(() -> AllreduceReference.allreduce(null, new short[2][8]))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("algorithm is null");
    }
}
