package dev.servebench.kernels.nvfp4;

import java.util.Objects;

/**
 * The exact-math NVFP4 quantiser (docs/kernels-nvfp4.md, Quantiser), the Java twin of
 * {@code sb_nvfp4_quantize}. For every block of 16 consecutive elements along K, in fp32 arithmetic in this
 * order:
 * <ol>
 *   <li>{@code sf = E4M3_rne_satfinite(amax / (6 * globalScale))}, amax the largest magnitude of the block;</li>
 *   <li>if {@code sf} is the byte 0 the block is a zero block, see {@link ZeroBlock};</li>
 *   <li>{@code code = E2M1_rne_satfinite(x / (E4M3(sf) * globalScale))}: round half to even on the E2M1
 *       grid, saturate at +-6, keep the sign (a small negative value gives 0x8, -0).</li>
 * </ol>
 * {@code globalScale} is the decode-form per-tensor scale ({@code weight_scale_2 = amax/(6*448)}). The GPU
 * kernels use fast reciprocals and can land one code away near rounding boundaries; this class is the
 * exact reference the native quantiser must match bit for bit.
 */
public final class Nvfp4Quantizer {

    /** What a block whose scale rounds to the byte 0 becomes. */
    public enum ZeroBlock {
        /** SF byte 0x00 and every code 0: what the GPU kernel writes, and what the native quantiser does. */
        ZERO_SCALE,
        /** SF replaced by 1.0 (0x38) and the codes computed with it, as ModelOpt's offline quantiser does. */
        MODELOPT_ONE
    }

    private static final int E4M3_ONE = 0x38;
    /** 6 * 448: the largest E2M1 magnitude times the largest E4M3 scale. */
    private static final float FORMAT_MAX = E2m1.MAX * E4m3.MAX;

    private Nvfp4Quantizer() {
    }

    public static Nvfp4Tensor quantize(float[] values, int rows, int k, float globalScale, ScaleLayout layout,
            ZeroBlock zeroBlock) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(zeroBlock, "zeroBlock");
        Nvfp4Reference.requireShape(rows, k);
        if (values.length != (long) rows * k) {
            throw new IllegalArgumentException("values hold " + values.length + " floats; expected rows*K = "
                    + (long) rows * k + " for " + rows + " x " + k);
        }
        requireGlobalScale(globalScale);
        requireFinite(values);
        byte[] packed = new byte[values.length / 2];
        byte[] scales = new byte[Math.toIntExact(layout.bytes(rows, k))]; // swizzle padding stays 0
        for (int r = 0; r < rows; r++) {
            for (int column = 0; column < k / 16; column++) {
                int first = r * k + column * 16;
                int sf = E4m3.encode(blockAmax(values, first) / (6f * globalScale));
                if (sf == 0 && zeroBlock == ZeroBlock.MODELOPT_ONE) {
                    sf = E4M3_ONE;
                }
                scales[(int) layout.offset(r, column, k)] = (byte) sf;
                if (sf == 0) {
                    continue; // codes stay 0
                }
                float blockScale = E4m3.decode(sf) * globalScale;
                for (int i = first; i < first + 16; i += 2) {
                    int even = E2m1.encode(values[i] / blockScale);
                    int odd = E2m1.encode(values[i + 1] / blockScale);
                    packed[i / 2] = (byte) (even | odd << 4);
                }
            }
        }
        return new Nvfp4Tensor(packed, scales, layout, globalScale, rows, k);
    }

    /**
     * The decode-form per-tensor scale ModelOpt chooses, {@code amax / (6 * 448)}, so the largest magnitude
     * lands on E2M1 6 times E4M3 448. All-zero input gets 1 (any scale encodes zeros exactly); a result below
     * the smallest normal float is raised to it, because {@link #quantize} needs a normal scale.
     */
    public static float globalScaleFor(float[] values) {
        Objects.requireNonNull(values, "values");
        requireFinite(values);
        float amax = 0f;
        for (float value : values) {
            amax = Math.max(amax, Math.abs(value));
        }
        if (amax == 0f) {
            return 1f;
        }
        return Math.max(amax / FORMAT_MAX, Float.MIN_NORMAL);
    }

    /**
     * Positive, finite and normal: then {@code E4M3(sf) * globalScale} is never 0, so no block divides by
     * zero.
     */
    public static void requireGlobalScale(float globalScale) {
        if (!(globalScale >= Float.MIN_NORMAL) || Float.isInfinite(globalScale)) {
            throw new IllegalArgumentException("global scale = " + globalScale
                    + "; expected a positive, finite, normal float (the decode-form weight_scale_2 = amax/(6*448))");
        }
    }

    private static float blockAmax(float[] values, int first) {
        float amax = 0f;
        for (int i = first; i < first + 16; i++) {
            float magnitude = Math.abs(values[i]);
            if (magnitude > amax) {
                amax = magnitude;
            }
        }
        return amax;
    }

    private static void requireFinite(float[] values) {
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                throw new IllegalArgumentException("values[" + i + "] = " + values[i] + "; expected a finite float");
            }
        }
    }
}
