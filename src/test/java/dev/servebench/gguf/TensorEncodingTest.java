package dev.servebench.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Q4_0 and F16 bytes checked against values worked out by hand from ggml's reference quantizer. */
class TensorEncodingTest {

    private static byte[] encode(float[] row, GgmlType type) {
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(type.bytes(row.length))).order(ByteOrder.LITTLE_ENDIAN);
        TensorEncoding.encode(row, type, out);
        assertThat(out.remaining()).as("bytes written == type.bytes(n)").isZero();
        return out.array();
    }

    @Test
    void q4_0WithNegativeExtremeHasScaleOneAndLowNibblesFirst() {
        float[] x = new float[32];
        for (int j = 0; j < 16; j++) {
            x[j] = j - 8; // -8 is the largest magnitude: d = -8 / -8 = 1, q = x + 8 = j
        }
        x[16] = 7.9f;   // 7.9 + 8.5 = 16.4 -> 16, saturates at 15
        x[17] = 0.5f;   // 9.0 -> 9
        x[18] = -0.49f; // 8.01 -> 8
        x[19] = 0.49f;  // 8.99 -> 8 (truncation, not rounding)
        // x[20..31] = 0 -> 8

        byte[] bytes = encode(x, GgmlType.Q4_0);

        assertThat(bytes).hasSize(18);
        assertThat(bytes[0]).as("f16 1.0 = 0x3C00, low byte").isEqualTo((byte) 0x00);
        assertThat(bytes[1]).as("f16 1.0 = 0x3C00, high byte").isEqualTo((byte) 0x3C);
        int[] high = {15, 9, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
        for (int j = 0; j < 16; j++) {
            assertThat(bytes[2 + j] & 0xFF).as("byte %d = q[%d] | q[%d] << 4", j, j, j + 16).isEqualTo(j | high[j] << 4);
        }
    }

    @Test
    void q4_0WithPositiveExtremeHasNegativeScaleAndSaturatesTheOppositeEnd() {
        float[] x = new float[32];
        x[0] = 4f;   // d = 4 / -8 = -0.5, id = -2: 4 -> -8 + 8.5 -> 0
        x[1] = -4f;  // 8 + 8.5 = 16.5 -> 16 -> 15 (decodes to -3.5)
        x[2] = 1f;   // -2 + 8.5 = 6.5 -> 6
        x[16] = -1f; // 2 + 8.5 = 10.5 -> 10

        byte[] bytes = encode(x, GgmlType.Q4_0);

        assertThat(bytes[0]).isEqualTo((byte) 0x00);
        assertThat(bytes[1]).as("f16 -0.5 = 0xB800").isEqualTo((byte) 0xB8);
        assertThat(bytes[2] & 0xFF).isEqualTo(0 | 10 << 4);
        assertThat(bytes[3] & 0xFF).isEqualTo(15 | 8 << 4);
        assertThat(bytes[4] & 0xFF).isEqualTo(6 | 8 << 4);
        float[] decoded = TensorEncoding.decodeQ4_0Block(ByteBuffer.wrap(bytes));
        assertThat(decoded[0]).isEqualTo(4f);
        assertThat(decoded[1]).as("the saturated end").isEqualTo(-3.5f);
        assertThat(decoded[2]).isEqualTo(1f);
        assertThat(decoded[16]).isEqualTo(-1f);
    }

    @Test
    void q4_0OfZerosIsAllEightsWithNegativeZeroScale() {
        byte[] bytes = encode(new float[64], GgmlType.Q4_0);

        assertThat(bytes).hasSize(36);
        for (int block = 0; block < 2; block++) {
            // As in ggml: d = 0.0f / -8 = -0.0f, which is f16 0x8000.
            assertThat(bytes[block * 18]).isZero();
            assertThat(bytes[block * 18 + 1]).isEqualTo((byte) 0x80);
            for (int j = 2; j < 18; j++) {
                assertThat(bytes[block * 18 + j]).isEqualTo((byte) 0x88);
            }
        }
    }

    @Test
    void f16IsLittleEndianHalfPrecision() {
        byte[] bytes = encode(new float[] {1f, -2f, 0.5f}, GgmlType.F16);

        assertThat(bytes).containsExactly(0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38);
    }

    @Test
    void q4_0RejectsRowsThatAreNotWholeBlocks() {
        assertThatThrownBy(() -> GgmlType.Q4_0.bytes(33)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("elements (33)").hasMessageContaining("32");
    }
}
