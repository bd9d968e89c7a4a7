package dev.servebench.kernels.ggml;

import static dev.servebench.kernels.ggml.Layer.H;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Threads, k = 1, shared experts, segment inputs, repeated computes and the life cycle. */
class GgmlMoeBehaviourTest {

    /**
     * ggml hands each output row to one thread and a row's arithmetic does not depend on the split, so the
     * thread count changes no bit of the result.
     */
    @ParameterizedTest
    @EnumSource(GgmlWeightType.class)
    void oneAndTwoThreadsGiveBitwiseEqualResults(GgmlWeightType type) {
        try (GgmlExperts experts = GgmlMoeTest.experts(type)) {
            float[] one = GgmlMoeTest.run(experts, 64, 1);
            float[] two = GgmlMoeTest.run(experts, 64, 2);
            assertThat(two).containsExactly(one);
        }
    }

    /** With one expert per token the sum is a single strided view, which b4916 makes contiguous (ggml_cont). */
    @Test
    void oneExpertPerTokenMatchesTheReference() {
        GgmlBatchShape shape = Layer.shape(1, 3);
        Batch batch = Batch.random(shape, 3);
        try (GgmlMoe moe = new GgmlMoe(GgmlLibrary.load(), H, Layer.I, Layer.E, 1, 3, GgmlWeightType.F32,
                Layer.WEIGHTS, 2)) {
            moe.setInputs(batch.x(), batch.ids(), batch.weights());
            moe.compute();
            double[] expected = MoeReference.compute(shape, Layer.original(), batch.x(), batch.ids(), batch.weights(),
                    row -> row);
            assertThat(MoeReference.worstTokenError(moe.output(), expected, H)).isLessThan(1e-5);
        }
    }

    @Test
    void graphsOfSeveralBatchSizesShareOneExpertsInstanceAndRecomputeNewInputs() {
        try (GgmlExperts experts = GgmlMoeTest.experts(GgmlWeightType.F32);
                GgmlMoe small = new GgmlMoe(experts, 2, 1, 1);
                GgmlMoe large = new GgmlMoe(experts, 2, 5, 2)) {
            for (long seed : new long[] {1, 2}) {
                for (GgmlMoe moe : new GgmlMoe[] {small, large}) {
                    Batch batch = Batch.random(moe.shape(), seed);
                    moe.setInputs(batch.x(), batch.ids(), batch.weights());
                    moe.compute();
                    double[] expected = MoeReference.compute(moe.shape(), Layer.original(), batch.x(), batch.ids(),
                            batch.weights(), row -> row);
                    assertThat(MoeReference.worstTokenError(moe.output(), expected, H)).isLessThan(1e-5);
                }
            }
            assertThat(large.workBytes()).isPositive();
        }
    }

    @Test
    void segmentInputsGiveTheSameResultAsArraysAndTheViewIsTheOutput() {
        GgmlBatchShape shape = Layer.shape(4, 7);
        Batch batch = Batch.random(shape, 9);
        try (GgmlExperts experts = GgmlMoeTest.experts(GgmlWeightType.F16);
                GgmlMoe moe = new GgmlMoe(experts, 4, 7, 2);
                Arena arena = Arena.ofConfined()) {
            moe.setInputs(batch.x(), batch.ids(), batch.weights());
            moe.compute();
            float[] fromArrays = moe.output();

            moe.setInputs(arena.allocateFrom(JAVA_FLOAT, new float[batch.x().length]), arena.allocateFrom(JAVA_INT,
                    new int[batch.ids().length]), arena.allocateFrom(JAVA_FLOAT, new float[batch.weights().length]));
            moe.compute();
            assertThat(moe.output()).containsOnly(0f);

            moe.setInputs(arena.allocateFrom(JAVA_FLOAT, batch.x()), arena.allocateFrom(JAVA_INT, batch.ids()),
                    arena.allocateFrom(JAVA_FLOAT, batch.weights()));
            moe.compute();
            assertThat(moe.output()).containsExactly(fromArrays);
            MemorySegment view = moe.outputView();
            assertThat(view.toArray(JAVA_FLOAT)).containsExactly(fromArrays);
            assertThat(view.isReadOnly()).isTrue();
        }
    }

    @Test
    void closedGraphsAndClosedExpertsRefuseWork() {
        Batch batch = Batch.random(Layer.shape(2, 1), 1);
        GgmlExperts experts = GgmlMoeTest.experts(GgmlWeightType.F32);
        GgmlMoe moe = new GgmlMoe(experts, 2, 1, 1);
        assertThatThrownBy(moe::compute).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before setInputs");
        moe.setInputs(batch.x(), batch.ids(), batch.weights());
        experts.close();
        assertThatThrownBy(moe::compute).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GgmlExperts").hasMessageContaining("closed");
        assertThatThrownBy(() -> new GgmlMoe(experts, 2, 1, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        moe.close();
        moe.close();
        assertThatThrownBy(moe::output).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GgmlMoe is closed");
    }
}
