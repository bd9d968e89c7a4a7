package dev.servebench.kernels.ggml;

import static dev.servebench.kernels.ggml.Layer.E;
import static dev.servebench.kernels.ggml.Layer.H;
import static dev.servebench.kernels.ggml.Layer.I;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.UnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole op against {@link MoeReference} (double precision, written from the formula). Error measures:
 * {@code rel} = ‖got − ref‖₂ / ‖ref‖₂ over the batch, {@code worst} = max over tokens of
 * max|got − ref| / max|ref| within the token.
 */
class GgmlMoeTest {

    static final int K = 4;

    /**
     * fp32 weights and activations: only summation order and rounding differ (fp32 sums of 256 and 64
     * terms, measured ~2e-7). 1e-5 still fails on any wiring mistake (swapped up/gate, transposed ids,
     * missing or misplaced routing weight), which gives errors of order 1.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 64})
    void f32MatchesTheDoubleReference(int tokens) {
        float[] got = run(GgmlWeightType.F32, tokens);
        double[] expected = reference(tokens, Layer.original(), row -> row);
        assertThat(MoeReference.worstTokenError(got, expected, H)).isLessThan(1e-5);
        assertThat(MoeReference.relativeError(got, expected)).isLessThan(2e-6);
    }

    /**
     * Against the reference fed with the stored fp16 weights and fp16-rounded x and SwiGLU product (what
     * ggml's F16 vec_dot multiplies), only fp32 summation is left (measured ≤ 2e-6). Where ggml's fp32
     * SwiGLU value and the reference's double one round to neighbouring fp16 values, one of 64 summands
     * moves by one fp16 ulp (2^-11 of itself); 1e-4 bounds that. Against exact fp32 math the error is the
     * fp16 format itself: four roundings in series at ~2^-11/√3 rms each give ≈ 5e-4 (measured 4.4–4.8e-4).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 64})
    void f16MatchesTheReferenceWithFp16WeightsAndActivations(int tokens) {
        try (GgmlExperts experts = experts(GgmlWeightType.F16)) {
            float[] got = run(experts, tokens, 2);
            double[] emulated = reference(tokens, Layer.stored(experts), Formats::fp16Round);
            assertThat(MoeReference.worstTokenError(got, emulated, H)).isLessThan(1e-4);
            assertThat(MoeReference.relativeError(got, emulated)).isLessThan(1e-5);
            double[] exact = reference(tokens, Layer.original(), row -> row);
            assertThat(MoeReference.relativeError(got, exact)).isBetween(1e-4, 1e-3);
        }
    }

    /**
     * Q4_0 weights decoded from the tensor and activations quantized to Q8_0 as ggml does: measured ≤ 1e-7
     * for small batches and 8e-5 (worst 3e-4) at T = 64, where ggml's fp32 SwiGLU value and the reference's
     * double one land on different sides of a Q8_0 rounding boundary (one of 64 summands moves by
     * amax/127 of its block). Against exact math the 4-bit error dominates: a step of amax/8 per block
     * gives ~6% noise per matrix, ≈ 11% through the layer (measured 11–14%), bounded by 0.2.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 64})
    void q4_0MatchesTheReferenceWithQ4_0WeightsAndQ8_0Activations(int tokens) {
        try (GgmlExperts experts = experts(GgmlWeightType.Q4_0)) {
            float[] got = run(experts, tokens, 2);
            double[] emulated = reference(tokens, Layer.stored(experts), Formats::q8_0Round);
            assertThat(MoeReference.worstTokenError(got, emulated, H)).isLessThan(2e-3);
            assertThat(MoeReference.relativeError(got, emulated)).isLessThan(5e-4);
            double[] exact = reference(tokens, Layer.original(), row -> row);
            assertThat(MoeReference.relativeError(got, exact)).isBetween(0.02, 0.2);
        }
    }

    /**
     * The CPU_AARCH64 buffer repacks the very same Q4_0 blocks into 8-row groups and multiplies with the same
     * Q8_0 activations, so against the plain Q4_0 path only fp32 summation order differs: ~8e-8 for small
     * batches, but the different order also moves fp32 SwiGLU values across Q8_0 rounding boundaries now and
     * then (measured 8e-5 at T = 64), hence the same bounds as against the emulated reference. One thread with T < E is the case where b4916's own work-size estimate for the repacked mul_mat_id
     * falls short (by 8·(E − T) = 120 bytes against 64 bytes of slack) and ggml would abort: GgmlMoe plans
     * the larger buffer the kernel checks for.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 64})
    void q4_0RepackedByTheCpuBackendMatchesThePlainQ4_0Path(int tokens) {
        try (GgmlExperts plain = experts(GgmlWeightType.Q4_0);
                GgmlExperts repacked = experts(GgmlWeightType.Q4_0_REPACKED)) {
            assertThat(repacked.weightBytes()).isEqualTo(plain.weightBytes());
            float[] got = run(repacked, tokens, 1);
            double[] plainResult = new double[got.length];
            float[] plainOutput = run(plain, tokens, 2);
            for (int i = 0; i < got.length; i++) {
                plainResult[i] = plainOutput[i];
            }
            assertThat(MoeReference.worstTokenError(got, plainResult, H)).isLessThan(2e-3);
            assertThat(MoeReference.relativeError(got, plainResult)).isLessThan(5e-4);
            double[] emulated = reference(tokens, Layer.stored(plain), Formats::q8_0Round);
            assertThat(MoeReference.worstTokenError(got, emulated, H)).isLessThan(2e-3);
            assertThat(MoeReference.relativeError(got, emulated)).isLessThan(5e-4);
        }
    }

    static GgmlExperts experts(GgmlWeightType type) {
        return new GgmlExperts(GgmlLibrary.load(), H, I, E, type, Layer.WEIGHTS);
    }

    static float[] run(GgmlWeightType type, int tokens) {
        try (GgmlExperts experts = experts(type)) {
            return run(experts, tokens, 2);
        }
    }

    static float[] run(GgmlExperts experts, int tokens, int threads) {
        Batch batch = Batch.random(Layer.shape(K, tokens), tokens);
        try (GgmlMoe moe = new GgmlMoe(experts, K, tokens, threads)) {
            moe.setInputs(batch.x(), batch.ids(), batch.weights());
            moe.compute();
            return moe.output();
        }
    }

    static double[] reference(int tokens, MoeReference.Matrices matrices, UnaryOperator<float[]> activation) {
        GgmlBatchShape shape = Layer.shape(K, tokens);
        Batch batch = Batch.random(shape, tokens);
        return MoeReference.compute(shape, matrices, batch.x(), batch.ids(), batch.weights(), activation);
    }
}
