package dev.servebench.kernels.nvfp4;

/** bfloat16 as raw 16-bit patterns: the upper half of an IEEE fp32. */
public final class Bf16 {

    private Bf16() {
    }

    public static float toFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /** Round to nearest even; NaN stays a quiet NaN. */
    public static short fromFloat(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7FFFFFFF) > 0x7F800000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        bits += 0x7FFF + ((bits >>> 16) & 1);
        return (short) (bits >>> 16);
    }
}
