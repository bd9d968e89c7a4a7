package dev.servebench.kernels.nvfp4;

/**
 * The obviously-correct scalar definition of NVFP4 dequantisation (kernels.md 1.5, decode form):
 * {@code x = (E2M1(code) * E4M3(scale)) * globalScale}, element 2i in the low nibble of byte i.
 */
public final class Nvfp4Reference {

    private Nvfp4Reference() {
    }

    public static void requireShape(long rows, long k) {
        if (rows < 1) {
            throw new IllegalArgumentException("rows = " + rows + "; expected at least 1");
        }
        if (k < 16 || k % 16 != 0) {
            throw new IllegalArgumentException("K = " + k + " is not a positive multiple of 16 (NVFP4 blocks are 16"
                    + " elements along K)");
        }
    }

    public static float[] dequantize(byte[] packed, byte[] scales, ScaleLayout layout, float globalScale,
            int rows, int k) {
        requireShape(rows, k);
        long elements = (long) rows * k;
        if (packed.length != elements / 2) {
            throw new IllegalArgumentException("packed holds " + packed.length + " bytes; expected rows*K/2 = "
                    + elements / 2);
        }
        if (scales.length != layout.bytes(rows, k)) {
            throw new IllegalArgumentException("scales hold " + scales.length + " bytes; expected "
                    + layout.bytes(rows, k) + " for layout " + layout);
        }
        float[] out = new float[Math.toIntExact(elements)];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < k; i++) {
                int index = r * k + i;
                int b = packed[index / 2] & 0xFF;
                int code = (index & 1) == 0 ? b & 0xF : b >>> 4;
                float scale = E4m3.decode(scales[(int) layout.offset(r, i / 16, k)] & 0xFF);
                out[index] = (E2m1.decode(code) * scale) * globalScale;
            }
        }
        return out;
    }
}
