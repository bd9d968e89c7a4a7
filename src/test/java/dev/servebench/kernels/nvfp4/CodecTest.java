package dev.servebench.kernels.nvfp4;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CodecTest {

    @Test
    void e4m3RoundTripsEveryFiniteCodeAndKnowsItsLimits() {
        for (int b = 0; b < 256; b++) {
            float value = E4m3.decode(b);
            if ((b & 0x7F) == 0x7F) {
                assertThat(value).isNaN();
                continue;
            }
            assertThat(E4m3.encode(value)).as("code 0x%02x (%s)", b, value).isEqualTo(b);
        }
        assertThat(E4m3.decode(0x7E)).isEqualTo(448f);
        assertThat(E4m3.decode(0x08)).isEqualTo(0x1p-6f);
        assertThat(E4m3.decode(0x01)).isEqualTo(0x1p-9f);
        assertThat(E4m3.encode(1e9f)).isEqualTo(0x7E);
        assertThat(E4m3.encode(-1e9f)).isEqualTo(0xFE);
        assertThat(E4m3.encode(464f)).as("midpoint 448..480 saturates").isEqualTo(0x7E);
        assertThat(E4m3.encode(1.0625f)).as("tie 1..1.125 to even mantissa").isEqualTo(0x38);
        assertThat(E4m3.encode(1.1875f)).as("tie 1.125..1.25 to even mantissa").isEqualTo(0x3A);
        assertThat(E4m3.encode(0x1p-10f)).as("half the smallest subnormal ties to 0").isEqualTo(0x00);
        assertThat(E4m3.encode(0x1.8p-10f)).isEqualTo(0x01);
    }

    @Test
    void e2m1RoundsHalfToEvenAndSaturatesKeepingTheSign() {
        for (int code = 0; code < 16; code++) {
            assertThat(E2m1.encode(E2m1.decode(code))).isEqualTo(code);
        }
        assertThat(Float.floatToRawIntBits(E2m1.decode(0x8))).isEqualTo(Float.floatToRawIntBits(-0f));
        assertThat(E2m1.encode(0.25f)).isEqualTo(0x0);
        assertThat(E2m1.encode(0.75f)).isEqualTo(0x2);
        assertThat(E2m1.encode(1.75f)).isEqualTo(0x4);
        assertThat(E2m1.encode(2.5f)).isEqualTo(0x4);
        assertThat(E2m1.encode(3.5f)).isEqualTo(0x6);
        assertThat(E2m1.encode(5f)).isEqualTo(0x6);
        assertThat(E2m1.encode(100f)).isEqualTo(0x7);
        assertThat(E2m1.encode(-0.1f)).isEqualTo(0x8);
        assertThat(E2m1.encode(-7f)).isEqualTo(0xF);
    }

    @Test
    void bf16RoundsToNearestEven() {
        assertThat(Bf16.fromFloat(1f)).isEqualTo((short) 0x3F80);
        assertThat(Bf16.fromFloat(Float.intBitsToFloat(0x3F808000))).as("tie, even stays").isEqualTo((short) 0x3F80);
        assertThat(Bf16.fromFloat(Float.intBitsToFloat(0x3F818000))).as("tie, odd rounds up").isEqualTo((short) 0x3F82);
        assertThat(Bf16.toFloat((short) 0xC000)).isEqualTo(-2f);
        assertThat(Float.isNaN(Bf16.toFloat(Bf16.fromFloat(Float.NaN)))).isTrue();
    }

    @Test
    void linearDequantUsesLowNibbleFirstAndMultipliesBothScales() {
        byte[] packed = new byte[8];
        packed[0] = (byte) 0x71; // element 0 = code 1 (0.5), element 1 = code 7 (6)
        packed[1] = (byte) 0x08; // element 2 = -0, element 3 = 0
        byte[] scales = {(byte) 0x40}; // 2.0
        float[] out = Nvfp4Reference.dequantize(packed, scales, ScaleLayout.LINEAR, 0.25f, 1, 16);
        assertThat(out[0]).isEqualTo(0.25f);
        assertThat(out[1]).isEqualTo(3f);
        assertThat(Float.floatToRawIntBits(out[2])).isEqualTo(Float.floatToRawIntBits(-0f));
    }

    @Test
    void swizzledOffsetsFollowTheFlashInferFormula() {
        assertThat(ScaleLayout.SWIZZLED_128X4.bytes(130, 16 * 5)).isEqualTo(256 * 8);
        assertThat(ScaleLayout.SWIZZLED_128X4.offset(33, 1, 64)).isEqualTo(16 + 4 + 1);
        assertThat(ScaleLayout.SWIZZLED_128X4.offset(128, 0, 16 * 8)).isEqualTo(2 * 512);
        assertThat(ScaleLayout.SWIZZLED_128X4.offset(0, 4, 16 * 8)).isEqualTo(512);
    }
}
