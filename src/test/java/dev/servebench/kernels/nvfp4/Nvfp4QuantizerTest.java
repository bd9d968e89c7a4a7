package dev.servebench.kernels.nvfp4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.nvfp4.Nvfp4Quantizer.ZeroBlock;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Java reference quantiser against the rules of docs/kernels-nvfp4.md, Quantiser and Edge cases. */
class Nvfp4QuantizerTest {

    private static final ScaleLayout LINEAR = ScaleLayout.LINEAR;

    private static float[] block(float... first) {
        return Arrays.copyOf(first, 16);
    }

    private static int code(Nvfp4Tensor tensor, int element) {
        int pair = tensor.packed()[element / 2] & 0xFF;
        return element % 2 == 0 ? pair & 0xF : pair >>> 4;
    }

    @Test
    void zeroBlockIsScaleZeroForTheGpuConventionAndOneForModelOpt() {
        // amax / 6 = 2^-11 is below half the smallest E4M3 subnormal (2^-10): the scale rounds to 0.
        float[] values = block(6 * 0x1p-11f, -6 * 0x1p-12f, 0f);
        Nvfp4Tensor gpu = Nvfp4Quantizer.quantize(values, 1, 16, 1f, LINEAR, ZeroBlock.ZERO_SCALE);
        assertThat(gpu.scales()).containsExactly(0x00);
        assertThat(gpu.packed()).containsOnly(0);
        assertThat(gpu.dequantize()).containsOnly(0f);

        Nvfp4Tensor modelOpt = Nvfp4Quantizer.quantize(values, 1, 16, 1f, LINEAR, ZeroBlock.MODELOPT_ONE);
        assertThat(modelOpt.scales()).containsExactly(0x38);
        assertThat(code(modelOpt, 0)).as("6*2^-11 / 1.0 rounds to +0").isEqualTo(0x0);
        assertThat(code(modelOpt, 1)).as("negative rounds to -0").isEqualTo(0x8);

        Nvfp4Tensor allZero = Nvfp4Quantizer.quantize(new float[16], 1, 16, 1f, LINEAR, ZeroBlock.MODELOPT_ONE);
        assertThat(allZero.scales()).containsExactly(0x38);
        assertThat(allZero.packed()).containsOnly(0);
    }

    @Test
    void valuesBeyondSixTimesTheBlockScaleSaturate() {
        // amax = 6 * 448 * 2 with globalScale 1: the scale saturates at 448 and x/448 = 12 > 6.
        float[] values = block(5376f, -5376f, 2688f);
        Nvfp4Tensor tensor = Nvfp4Quantizer.quantize(values, 1, 16, 1f, LINEAR, ZeroBlock.ZERO_SCALE);
        assertThat(tensor.scales()).containsExactly(0x7E);
        assertThat(code(tensor, 0)).isEqualTo(0x7);
        assertThat(code(tensor, 1)).isEqualTo(0xF);
        assertThat(code(tensor, 2)).as("2688 / 448 = 6 exactly").isEqualTo(0x7);
        assertThat(tensor.dequantize()[1]).isEqualTo(-2688f);
    }

    @Test
    void tiesGoToTheEvenCodeAndSmallNegativesKeepTheirSign() {
        // amax 6 and globalScale 1 give the block scale 1.0, so x / scale is x itself.
        float[] values = block(6f, 0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5f, -0.25f, -0.75f, -5f, -0.1f, -0f,
                0.2500001f, 0.7499999f, 5.0000005f);
        Nvfp4Tensor tensor = Nvfp4Quantizer.quantize(values, 1, 16, 1f, LINEAR, ZeroBlock.ZERO_SCALE);
        assertThat(tensor.scales()).containsExactly(0x38);
        int[] expected = {0x7, 0x0, 0x2, 0x2, 0x4, 0x4, 0x6, 0x6, 0x8, 0xA, 0xE, 0x8, 0x8, 0x1, 0x1, 0x7};
        for (int i = 0; i < 16; i++) {
            assertThat(code(tensor, i)).as("element %d = %s", i, values[i]).isEqualTo(expected[i]);
        }
        assertThat(Float.floatToRawIntBits(tensor.dequantize()[11])).as("-0.1 decodes to -0.0")
                .isEqualTo(Float.floatToRawIntBits(-0f));
    }

    @Test
    void tinyBlocksGetSubnormalScalesThatDecodeExactly() {
        // amax / 6 = 3 * 2^-9: the E4M3 subnormal 0x03.
        float[] values = block(6 * 3 * 0x1p-9f, -3 * 3 * 0x1p-9f, 3 * 0x1p-9f);
        Nvfp4Tensor tensor = Nvfp4Quantizer.quantize(values, 1, 16, 1f, LINEAR, ZeroBlock.ZERO_SCALE);
        assertThat(tensor.scales()).containsExactly(0x03);
        float[] decoded = tensor.dequantize();
        assertThat(decoded[0]).isEqualTo(values[0]);
        assertThat(decoded[1]).isEqualTo(values[1]);
        assertThat(decoded[2]).isEqualTo(values[2]);
    }

    @Test
    void nanScaleDecodesToNanAndTheProductOrderIsElementTimesScaleThenGlobal() {
        byte[] packed = new byte[8];
        packed[0] = 0x7F; // elements 0 and 1: -6 and 6
        assertThat(new Nvfp4Tensor(packed, new byte[] {0x7F}, LINEAR, 1f, 1, 16).dequantize()).containsOnly(Float.NaN);
        assertThat(new Nvfp4Tensor(packed, new byte[] {(byte) 0xFF}, LINEAR, 1f, 1, 16).dequantize())
                .containsOnly(Float.NaN);
        // 6 * 448 = 2688 exactly, then one rounding by the global scale; 6 * (448 * g) rounds differently here.
        float global = 0.1f;
        float decoded = new Nvfp4Tensor(packed, new byte[] {0x7E}, LINEAR, global, 1, 16).dequantize()[1];
        assertThat(decoded).isEqualTo(2688f * global);
        assertThat(decoded).isNotEqualTo(6f * (448f * global));
    }

    @ParameterizedTest
    @EnumSource(ZeroBlock.class)
    void roundTripErrorIsAtMostHalfAnE2m1StepTimesTheBlockScale(ZeroBlock zeroBlock) {
        SplittableRandom random = new SplittableRandom(4);
        int rows = 33;
        int k = 96;
        float[] values = Nvfp4TestData.edgeCaseValues(random, rows, k, 0.01f);
        float global = Nvfp4Quantizer.globalScaleFor(values);
        Nvfp4Tensor tensor = Nvfp4Quantizer.quantize(values, rows, k, global, LINEAR, zeroBlock);
        float[] decoded = tensor.dequantize();
        for (int i = 0; i < values.length; i++) {
            int sf = tensor.scales()[i / 16] & 0xFF;
            float blockScale = E4m3.decode(sf) * global;
            String where = "element " + i + " = " + values[i] + ", sf 0x" + Integer.toHexString(sf);
            if (sf == 0) {
                // A zero block: amax / (6 * global) rounded to E4M3 0, so amax <= 6 * global * 2^-10.
                assertThat(decoded[i]).as(where).isZero();
                assertThat(Math.abs(values[i])).as(where).isLessThanOrEqualTo(6 * global * 0x1p-10f * (1 + 0x1p-20f));
                continue;
            }
            float scaled = Math.abs(values[i]) / blockScale;
            if (scaled > E2m1.MAX) {
                assertThat(decoded[i]).as(where + " saturates").isEqualTo(Math.copySign(E2m1.MAX * E4m3.decode(sf), values[i]) * global);
                continue;
            }
            float halfStep = scaled < 2 ? 0.25f : scaled < 4 ? 0.5f : 1f;
            // Half a grid step in units of the block scale, plus 2^-20 relative for the fp32 roundings of the
            // block scale and of x / scale, plus the final rounding of the decoded value.
            float bound = halfStep * blockScale + Math.abs(values[i]) * 0x1p-20f + Math.ulp(decoded[i]);
            assertThat(Math.abs(decoded[i] - values[i])).as(where).isLessThanOrEqualTo(bound);
            assertThat(Math.signum(decoded[i]) * Math.signum(values[i])).as(where + " keeps its sign")
                    .isGreaterThanOrEqualTo(0f);
        }
    }

    @Test
    void globalScaleIsAmaxOverSixTimes448() {
        assertThat(Nvfp4Quantizer.globalScaleFor(new float[] {1f, -2688f, 3f})).isEqualTo(1f);
        assertThat(Nvfp4Quantizer.globalScaleFor(new float[] {0.5f})).isEqualTo(0.5f / 2688f);
        assertThat(Nvfp4Quantizer.globalScaleFor(new float[32])).isEqualTo(1f);
        assertThat(Nvfp4Quantizer.globalScaleFor(new float[] {Float.MIN_VALUE})).isEqualTo(Float.MIN_NORMAL);
        assertThatThrownBy(() -> Nvfp4Quantizer.globalScaleFor(new float[] {1f, Float.NaN}))
                .hasMessageContaining("values[1] = NaN");
    }

    @Test
    void badInputIsRejectedWithTheArgumentNamed() {
        float[] sixteen = new float[16];
        assertThatThrownBy(() -> Nvfp4Quantizer.quantize(new float[8], 1, 8, 1f, LINEAR, ZeroBlock.ZERO_SCALE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("K = 8").hasMessageContaining("16");
        assertThatThrownBy(() -> Nvfp4Quantizer.quantize(sixteen, 2, 16, 1f, LINEAR, ZeroBlock.ZERO_SCALE))
                .hasMessageContaining("values hold 16 floats; expected rows*K = 32");
        for (float bad : new float[] {Float.NaN, -1f, 0f, Float.POSITIVE_INFINITY, Float.MIN_VALUE}) {
            assertThatThrownBy(() -> Nvfp4Quantizer.quantize(sixteen, 1, 16, bad, LINEAR, ZeroBlock.ZERO_SCALE))
                    .as("global scale %s", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("global scale = " + bad);
        }
        float[] infinite = block(1f, Float.NEGATIVE_INFINITY);
        assertThatThrownBy(() -> Nvfp4Quantizer.quantize(infinite, 1, 16, 1f, LINEAR, ZeroBlock.ZERO_SCALE))
                .hasMessageContaining("values[1] = -Infinity");
        assertThatThrownBy(() -> Nvfp4Quantizer.quantize(sixteen, 1, 16, 1f, null, ZeroBlock.ZERO_SCALE))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("layout");
        assertThatThrownBy(() -> new Nvfp4Tensor(new byte[8], new byte[2], LINEAR, 1f, 1, 16))
                .hasMessageContaining("scales hold 2 bytes; expected 1");
        assertThatThrownBy(() -> new Nvfp4Tensor(new byte[8], new byte[1], ScaleLayout.SWIZZLED_128X4, 1f, 1, 16))
                .hasMessageContaining("expected 512");
    }
}
