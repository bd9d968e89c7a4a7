package dev.servebench.kernels.ggml;

import static dev.servebench.kernels.ggml.Layer.E;
import static dev.servebench.kernels.ggml.Layer.H;
import static dev.servebench.kernels.ggml.Layer.I;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** How the fp32 supplier's weights end up in the stored tensors. */
class GgmlExpertsTest {

    @Test
    void f32WeightsAreCopiedExactlyIntoTheRowsOfEachExpert() {
        try (GgmlExperts experts = GgmlMoeTest.experts(GgmlWeightType.F32)) {
            assertThat(experts.weightBytes()).isEqualTo(3L * E * I * H * Float.BYTES);
            MoeReference.Matrices stored = Layer.stored(experts);
            MoeReference.Matrices original = Layer.original();
            for (int e : new int[] {0, 5, E - 1}) {
                assertThat(stored.up(e)).containsExactly(original.up(e));
                assertThat(stored.gate(e)).containsExactly(original.gate(e));
                assertThat(stored.down(e)).containsExactly(original.down(e));
            }
        }
    }

    /** ggml_fp32_to_fp16_row rounds to nearest even, like Float.floatToFloat16: bit-for-bit equal. */
    @Test
    void f16WeightsAreTheNearestHalfOfEveryWeight() {
        try (GgmlExperts experts = GgmlMoeTest.experts(GgmlWeightType.F16)) {
            assertThat(experts.weightBytes()).isEqualTo(3L * E * I * H * 2);
            MoeReference.Matrices stored = Layer.stored(experts);
            MoeReference.Matrices original = Layer.original();
            for (int e = 0; e < E; e++) {
                assertThat(stored.up(e)).containsExactly(Formats.fp16Round(original.up(e)));
                assertThat(stored.gate(e)).containsExactly(Formats.fp16Round(original.gate(e)));
                assertThat(stored.down(e)).containsExactly(Formats.fp16Round(original.down(e)));
            }
        }
    }

    /**
     * The reference Q4_0 quantizer: per block of 32 the scale is {@code d = m / −8} (m = the value of
     * largest magnitude, sign kept) stored as fp16, codes are 0…15 around 8. Every weight is then within
     * one step |d| of its value (half a step inside the range; one step where the top code clips at 15),
     * plus the fp16 rounding of d times at most 8 steps.
     */
    @Test
    void q4_0BlocksUseTheLargestMagnitudeOverMinusEightAsScale() {
        try (GgmlExperts experts = GgmlMoeTest.experts(GgmlWeightType.Q4_0)) {
            assertThat(experts.weightBytes()).isEqualTo(3L * E * I * H / 32 * Formats.Q4_0_BLOCK_BYTES);
            MemorySegment up = experts.library().calls().data(experts.upTensor());
            MoeReference.Matrices stored = Layer.stored(experts);
            int blocksChecked = 0;
            for (int e = 0; e < E; e++) {
                float[] original = new float[I * H];
                Layer.WEIGHTS.up(e, original);
                float[] decoded = stored.up(e);
                for (int b = 0; b < original.length / 32; b++) {
                    float signedMax = 0;
                    for (int i = b * 32; i < b * 32 + 32; i++) {
                        if (Math.abs(original[i]) > Math.abs(signedMax)) {
                            signedMax = original[i];
                        }
                    }
                    long blockOffset = ((long) e * original.length / 32 + b) * Formats.Q4_0_BLOCK_BYTES;
                    float d = Formats.q4_0Scale(up, blockOffset);
                    assertThat(d).isEqualTo(Formats.fp16Round(signedMax / -8f));
                    for (int i = b * 32; i < b * 32 + 32; i++) {
                        assertThat(Math.abs(decoded[i] - original[i])).isLessThanOrEqualTo(Math.abs(d) * (1 + 8f / 2048));
                    }
                    blocksChecked++;
                }
            }
            assertThat(blocksChecked).isEqualTo(E * I * H / 32);
        }
    }
}
