package dev.servebench.kernels.moe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** sb_moe_w4a16 of every library variant against MoeReference within MoeErrorBound. */
class MoeForwardTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(MoeShape.SMALL, 1, RoutingSkew.UNIFORM),
                Arguments.of(MoeShape.SMALL, 5, RoutingSkew.UNIFORM),
                Arguments.of(MoeShape.SMALL, 64, RoutingSkew.UNIFORM),
                Arguments.of(MoeShape.SMALL, 64, RoutingSkew.HOT_EXPERTS),
                // K an odd multiple of 16 in both GEMMs (AVX-512 tails), GEMM2 rows of one block only
                Arguments.of(new MoeShape(48, 16, 5, 3), 7, RoutingSkew.UNIFORM),
                // every token on every expert: 9 tokens per expert = chunks of 4, 4, 1 from the panel
                Arguments.of(new MoeShape(80, 48, 3, 3), 9, RoutingSkew.UNIFORM),
                Arguments.of(new MoeShape(1024, 128, 8, 2), 64, RoutingSkew.UNIFORM),
                // rows longer than the AVX-512 panel with more than 4 tokens: decoded again per chunk
                Arguments.of(new MoeShape(8208, 16, 1, 1), 6, RoutingSkew.UNIFORM));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyVariantStaysWithinTheBoundAndScalarIsBitExact(MoeShape shape, int tokens, RoutingSkew skew) {
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(shape, 11 + tokens, arena);
            MoeInputs inputs = MoeInputs.random(shape, tokens, 17 + tokens, arena, skew);
            MoeReference.BoundedOutput reference = MoeReference.forwardWithBounds(shape, weights, inputs);
            float[] plain = MoeReference.forward(shape, weights, inputs);
            assertThat(plain).as("forward == forwardWithBounds().out()").containsExactly(reference.out());
            assertThat(maxAbs(reference.out())).as("outputs are O(1)").isBetween(0.05, 100.0);
            for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
                float[] actual = runNative(variant, shape, weights, inputs, 2);
                double ratio = maxRatio(actual, reference);
                System.out.printf("moe %s T=%d %s %-8s max |native-ref|/bound = %.3g%n", shape, tokens, skew,
                        variant, ratio);
                assertThat(ratio).as("%s: max error / bound", variant).isLessThanOrEqualTo(1.0);
                if (variant == KernelLibrary.Variant.SCALAR) {
                    assertThat(actual).as("scalar build shares the reference's order").containsExactly(reference.out());
                }
            }
        }
    }

    @Test
    void theBoundIsTightEnoughToCatchOneWrongBlockScale() {
        MoeShape shape = MoeShape.SMALL;
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(shape, 5, arena);
            MoeInputs inputs = MoeInputs.random(shape, 8, 6, arena, RoutingSkew.UNIFORM);
            MoeReference.BoundedOutput reference = MoeReference.forwardWithBounds(shape, weights, inputs);
            int expert = inputs.routing().id(0, 0);
            // One E4M3 block scale of one down-projection row moves one step (e.g. 256 -> 288).
            long scaleAt = (long) expert * shape.hidden() * (shape.inter() / 16) + 3 * (shape.inter() / 16) + 1;
            byte old = weights.w2Scales().get(ValueLayout.JAVA_BYTE, scaleAt);
            weights.w2Scales().set(ValueLayout.JAVA_BYTE, scaleAt, (byte) (old + 1));
            float[] actual = runNative(KernelLibrary.Variant.DISPATCH, shape, weights, inputs, 1);
            assertThat(maxRatio(actual, reference)).isGreaterThan(1.0);
        }
    }

    @Test
    void resultsDoNotDependOnTheThreadCount() {
        MoeShape shape = new MoeShape(512, 64, 16, 4);
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(shape, 7, arena);
            MoeInputs inputs = MoeInputs.random(shape, 33, 8, arena, RoutingSkew.HOT_EXPERTS);
            for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
                float[] one = runNative(variant, shape, weights, inputs, 1);
                assertThat(runNative(variant, shape, weights, inputs, 3)).as("%s", variant).containsExactly(one);
            }
        }
    }

    static float[] runNative(KernelLibrary.Variant variant, MoeShape shape, MoeWeights weights, MoeInputs inputs,
            int threads) {
        NativeMoe moe = new NativeMoe(KernelLibrary.load(variant));
        try (Arena arena = Arena.ofConfined()) {
            long values = (long) inputs.tokens() * shape.hidden();
            MemorySegment out = arena.allocate(4 * values, 64);
            out.fill((byte) 0x7F); // NaN pattern: every element must be written
            MemorySegment workspace = arena.allocate(moe.workspaceBytes(shape, inputs.tokens()), 64);
            moe.forward(shape, weights, inputs, out, workspace, threads);
            return out.toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    private static double maxRatio(float[] actual, MoeReference.BoundedOutput reference) {
        assertThat(actual).hasSameSizeAs(reference.out());
        double worst = 0;
        for (int i = 0; i < actual.length; i++) {
            double bound = reference.bound()[i];
            assertThat(bound).as("bound %d", i).isFinite();
            double error = Math.abs((double) actual[i] - reference.out()[i]);
            assertThat(error).as("element %d", i).isNotNaN();
            worst = Math.max(worst, bound == 0 ? (error == 0 ? 0 : Double.POSITIVE_INFINITY) : error / bound);
        }
        return worst;
    }

    private static double maxAbs(float[] values) {
        double max = 0;
        for (float v : values) {
            max = Math.max(max, Math.abs(v));
        }
        return max;
    }
}
