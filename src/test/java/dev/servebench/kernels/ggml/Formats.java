package dev.servebench.kernels.ggml;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Decoders and activation roundings for the stored ggml formats, written from the format definitions. */
final class Formats {

    static final int Q_BLOCK = 32;
    /** block_q4_0: fp16 scale d, then 16 bytes; byte j holds element j (low nibble) and j + 16 (high). */
    static final int Q4_0_BLOCK_BYTES = 2 + 16;

    private Formats() {
    }

    static float fp16Round(float value) {
        return Float.float16ToFloat(Float.floatToFloat16(value));
    }

    static float[] fp16Round(float[] row) {
        float[] out = new float[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = fp16Round(row[i]);
        }
        return out;
    }

    /**
     * Q8_0 as ggml's AVX2 {@code quantize_row_q8_0} makes it from an fp32 row, returned dequantized: per block
     * of 32, {@code d = amax / 127} stored as fp16, {@code q = rint(v · (127 / amax))}, value {@code q · d}.
     */
    static float[] q8_0Round(float[] row) {
        float[] out = new float[row.length];
        for (int b = 0; b < row.length; b += Q_BLOCK) {
            float amax = 0;
            for (int i = b; i < b + Q_BLOCK; i++) {
                amax = Math.max(amax, Math.abs(row[i]));
            }
            float d = fp16Round(amax / 127f);
            float id = amax != 0 ? 127f / amax : 0f;
            for (int i = b; i < b + Q_BLOCK; i++) {
                out[i] = (float) Math.rint(row[i] * id) * d;
            }
        }
        return out;
    }

    static float[] decodeF16(MemorySegment data, long offsetBytes, int count) {
        float[] out = new float[count];
        for (int i = 0; i < count; i++) {
            out[i] = Float.float16ToFloat(data.get(ValueLayout.JAVA_SHORT_UNALIGNED, offsetBytes + 2L * i));
        }
        return out;
    }

    static float[] decodeQ4_0(MemorySegment data, long offsetBytes, int count) {
        float[] out = new float[count];
        for (int b = 0; b < count / Q_BLOCK; b++) {
            long block = offsetBytes + (long) b * Q4_0_BLOCK_BYTES;
            float d = q4_0Scale(data, block);
            for (int j = 0; j < 16; j++) {
                int packed = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, block + 2 + j));
                out[b * Q_BLOCK + j] = ((packed & 0x0F) - 8) * d;
                out[b * Q_BLOCK + j + 16] = ((packed >>> 4) - 8) * d;
            }
        }
        return out;
    }

    static float q4_0Scale(MemorySegment data, long blockOffset) {
        return Float.float16ToFloat(data.get(ValueLayout.JAVA_SHORT_UNALIGNED, blockOffset));
    }
}
