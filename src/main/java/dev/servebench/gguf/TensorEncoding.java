package dev.servebench.gguf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Encodes rows of floats into ggml's on-disk layouts (little-endian). */
public final class TensorEncoding {

    private static final int QK4_0 = 32;

    private TensorEncoding() {
    }

    /**
     * Appends {@code row} in {@code type}'s layout. {@code out} must be little-endian with room for
     * {@code type.bytes(row.length)} bytes.
     */
    public static void encode(float[] row, GgmlType type, ByteBuffer out) {
        if (out.order() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalArgumentException("out must be little-endian");
        }
        switch (type) {
            case F32 -> {
                for (float v : row) {
                    out.putFloat(v);
                }
            }
            case F16 -> {
                for (float v : row) {
                    out.putShort(Float.floatToFloat16(v));
                }
            }
            case Q4_0 -> {
                if (row.length % QK4_0 != 0) {
                    throw new IllegalArgumentException("row length (" + row.length + ") must be a multiple of 32 for Q4_0");
                }
                for (int block = 0; block < row.length; block += QK4_0) {
                    encodeQ4_0Block(row, block, out);
                }
            }
        }
    }

    /**
     * One block exactly as ggml's {@code quantize_row_q4_0_ref}: d is the value with the largest
     * magnitude (sign kept) divided by -8, so that value maps to q = 0 and the opposite extreme
     * saturates at 15; byte j holds element j in its low nibble and element j + 16 in its high nibble.
     */
    static void encodeQ4_0Block(float[] x, int from, ByteBuffer out) {
        float amax = 0.0f;
        float max = 0.0f;
        for (int j = 0; j < QK4_0; j++) {
            float v = x[from + j];
            if (amax < Math.abs(v)) {
                amax = Math.abs(v);
                max = v;
            }
        }
        float d = max / -8;
        float id = d != 0.0f ? 1.0f / d : 0.0f;
        out.putShort(Float.floatToFloat16(d));
        for (int j = 0; j < QK4_0 / 2; j++) {
            float x0 = x[from + j] * id;
            float x1 = x[from + QK4_0 / 2 + j] * id;
            // C's (int8_t) cast truncates toward zero, as Java's (int) cast does; x + 8.5 >= 0.5 here.
            int q0 = Math.min(15, (int) (x0 + 8.5f));
            int q1 = Math.min(15, (int) (x1 + 8.5f));
            out.put((byte) (q0 | (q1 << 4)));
        }
    }

    /** Inverse of the Q4_0 encoding for one block: (q - 8) * d. Used by tests and diagnostics. */
    public static float[] decodeQ4_0Block(ByteBuffer in) {
        ByteBuffer le = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        float d = Float.float16ToFloat(le.getShort());
        float[] x = new float[QK4_0];
        for (int j = 0; j < QK4_0 / 2; j++) {
            int b = le.get() & 0xFF;
            x[j] = ((b & 0x0F) - 8) * d;
            x[j + QK4_0 / 2] = ((b >>> 4) - 8) * d;
        }
        return x;
    }
}
