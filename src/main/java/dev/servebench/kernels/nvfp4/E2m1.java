package dev.servebench.kernels.nvfp4;

/**
 * The 4-bit E2M1 element (docs/kernels-nvfp4.md, Element E2M1): bit 3 sign, bits 2..0 magnitude index; no Inf
 * or NaN. Code 0x8 is negative zero and decodes to -0.0f.
 */
public final class E2m1 {

    private static final float[] VALUES = {
        0f, 0.5f, 1f, 1.5f, 2f, 3f, 4f, 6f,
        -0f, -0.5f, -1f, -1.5f, -2f, -3f, -4f, -6f,
    };

    /** Largest magnitude; encoding saturates here. */
    public static final float MAX = 6f;

    private E2m1() {
    }

    public static float decode(int code) {
        if ((code & ~0xF) != 0) {
            throw new IllegalArgumentException("E2M1 code " + code + " out of range; expected 0..15");
        }
        return VALUES[code];
    }

    /**
     * Round to nearest, ties to the even code, saturating at +-6; the sign is kept, so a negative value
     * that rounds to zero gives 0x8. NaN has no E2M1 code and is rejected.
     */
    public static int encode(float value) {
        if (Float.isNaN(value)) {
            throw new IllegalArgumentException("NaN has no E2M1 encoding");
        }
        int sign = (Float.floatToRawIntBits(value) >>> 31) << 3;
        float magnitude = Math.abs(value);
        // Midpoints between neighbouring magnitudes 0, .5, 1, 1.5, 2, 3, 4, 6; at a midpoint the even
        // magnitude index wins.
        int index;
        if (magnitude <= 0.25f) index = 0;
        else if (magnitude < 0.75f) index = 1;
        else if (magnitude <= 1.25f) index = 2;
        else if (magnitude < 1.75f) index = 3;
        else if (magnitude <= 2.5f) index = 4;
        else if (magnitude < 3.5f) index = 5;
        else if (magnitude <= 5f) index = 6;
        else index = 7;
        return sign | index;
    }
}
