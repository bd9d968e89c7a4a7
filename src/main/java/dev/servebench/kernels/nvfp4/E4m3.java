package dev.servebench.kernels.nvfp4;

/**
 * FP8 E4M3 "e4m3fn" block scales (docs/kernels-nvfp4.md, Block scale E4M3): bias 7, no infinities, NaN only
 * at 0x7F/0xFF, max finite 448, subnormals m * 2^-9.
 */
public final class E4m3 {

    public static final float MAX = 448f;
    private static final float[] DECODED = new float[256];

    static {
        for (int b = 0; b < 256; b++) {
            DECODED[b] = computeDecode(b);
        }
    }

    private E4m3() {
    }

    public static float decode(int bits) {
        if ((bits & ~0xFF) != 0) {
            throw new IllegalArgumentException("E4M3 byte " + bits + " out of range; expected 0..255");
        }
        return DECODED[bits];
    }

    private static float computeDecode(int b) {
        int exponent = (b >>> 3) & 0xF;
        int mantissa = b & 7;
        float sign = (b & 0x80) != 0 ? -1f : 1f;
        if (exponent == 15 && mantissa == 7) {
            return Float.NaN;
        }
        if (exponent == 0) {
            return sign * mantissa * 0x1p-9f;
        }
        return sign * (1f + mantissa / 8f) * Math.scalb(1f, exponent - 7);
    }

    /**
     * Round to nearest even with saturation to +-448 (SATFINITE, as {@code __nv_fp8_e4m3(float)});
     * NaN encodes as 0x7F.
     */
    public static int encode(float value) {
        if (Float.isNaN(value)) {
            return 0x7F;
        }
        int sign = value < 0 || (value == 0 && 1 / value < 0) ? 0x80 : 0;
        double magnitude = Math.abs((double) value);
        if (magnitude >= MAX) {
            return sign | 0x7E;
        }
        // Exact: scale into units of the spacing of the binade, round half-even, carry into exponent.
        int exponent = magnitude < 0x1p-6 ? -6 : Math.getExponent(magnitude);
        double ulp = Math.scalb(1.0, exponent - 3);
        long units = (long) Math.rint(magnitude / ulp);
        double rounded = units * ulp;
        if (rounded >= MAX) {
            return sign | 0x7E;
        }
        if (rounded == 0) {
            return sign;
        }
        if (rounded < 0x1p-6) {
            return sign | (int) units; // subnormal: units of 2^-9
        }
        int e = Math.getExponent(rounded);
        int mantissa = (int) Math.round((rounded / Math.scalb(1.0, e) - 1.0) * 8);
        return sign | ((e + 7) << 3) | mantissa;
    }
}
