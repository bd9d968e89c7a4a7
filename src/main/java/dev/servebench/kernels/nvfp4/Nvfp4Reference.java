package dev.servebench.kernels.nvfp4;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * The obviously-correct scalar definition of NVFP4 dequantisation (docs/kernels-nvfp4.md, Global scale):
 * {@code x = (E2M1(code) * E4M3(scale)) * globalScale}, element 2i in the low nibble of byte i; bf16 output
 * rounds that fp32 value to nearest even once. The native kernels are tested against these methods.
 */
public final class Nvfp4Reference {

    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private Nvfp4Reference() {
    }

    /**
     * rows >= 1 and K a positive multiple of 16, with the fp32 output size ({@code rows * K * 4} bytes)
     * representable in a long.
     */
    public static void requireShape(long rows, long k) {
        if (rows < 1) {
            throw new IllegalArgumentException("rows = " + rows + "; expected at least 1");
        }
        if (k < 16 || k % 16 != 0) {
            throw new IllegalArgumentException("K = " + k + " is not a positive multiple of 16 (NVFP4 blocks are 16"
                    + " elements along K)");
        }
        if (rows > Long.MAX_VALUE / 4 / k) {
            throw new IllegalArgumentException("rows = " + rows + " x K = " + k + " elements is too large");
        }
    }

    public static float[] dequantize(byte[] packed, byte[] scales, ScaleLayout layout, float globalScale,
            int rows, int k) {
        requireArrays(packed, scales, layout, rows, k);
        float[] out = new float[Math.toIntExact((long) rows * k)];
        dequantizeF32(MemorySegment.ofArray(packed), MemorySegment.ofArray(scales), layout, globalScale, rows, k,
                MemorySegment.ofArray(out));
        return out;
    }

    /** bf16 bit patterns, {@link Bf16#fromFloat} of {@link #dequantize}'s values. */
    public static short[] dequantizeBf16(byte[] packed, byte[] scales, ScaleLayout layout, float globalScale,
            int rows, int k) {
        requireArrays(packed, scales, layout, rows, k);
        short[] out = new short[Math.toIntExact((long) rows * k)];
        dequantizeBf16(MemorySegment.ofArray(packed), MemorySegment.ofArray(scales), layout, globalScale, rows, k,
                MemorySegment.ofArray(out));
        return out;
    }

    /**
     * Writes {@code rows * k} fp32 values to {@code out} (native byte order). Segments may be heap or native;
     * nothing is allocated, so this is also the "java" backend of the dequant benchmark.
     */
    public static void dequantizeF32(MemorySegment packed, MemorySegment scales, ScaleLayout layout,
            float globalScale, long rows, long k, MemorySegment out) {
        requireSegments(packed, scales, layout, rows, k, out, Float.BYTES);
        for (long r = 0; r < rows; r++) {
            for (long column = 0; column < k / 16; column++) {
                float scale = E4m3.decode(scales.get(ValueLayout.JAVA_BYTE, layout.offset(r, column, k)) & 0xFF);
                long first = r * k + column * 16;
                for (long i = first; i < first + 16; i += 2) {
                    int pair = packed.get(ValueLayout.JAVA_BYTE, i / 2) & 0xFF; // element i low, i + 1 high
                    out.setAtIndex(FLOAT, i, (E2m1.decode(pair & 0xF) * scale) * globalScale);
                    out.setAtIndex(FLOAT, i + 1, (E2m1.decode(pair >>> 4) * scale) * globalScale);
                }
            }
        }
    }

    /** As {@link #dequantizeF32}, each value rounded once to bf16 (2 bytes per element). */
    public static void dequantizeBf16(MemorySegment packed, MemorySegment scales, ScaleLayout layout,
            float globalScale, long rows, long k, MemorySegment out) {
        requireSegments(packed, scales, layout, rows, k, out, 2);
        for (long r = 0; r < rows; r++) {
            for (long column = 0; column < k / 16; column++) {
                float scale = E4m3.decode(scales.get(ValueLayout.JAVA_BYTE, layout.offset(r, column, k)) & 0xFF);
                long first = r * k + column * 16;
                for (long i = first; i < first + 16; i += 2) {
                    int pair = packed.get(ValueLayout.JAVA_BYTE, i / 2) & 0xFF; // element i low, i + 1 high
                    out.setAtIndex(SHORT, i, Bf16.fromFloat((E2m1.decode(pair & 0xF) * scale) * globalScale));
                    out.setAtIndex(SHORT, i + 1, Bf16.fromFloat((E2m1.decode(pair >>> 4) * scale) * globalScale));
                }
            }
        }
    }

    private static void requireArrays(byte[] packed, byte[] scales, ScaleLayout layout, int rows, int k) {
        Objects.requireNonNull(packed, "packed");
        Objects.requireNonNull(scales, "scales");
        Objects.requireNonNull(layout, "layout");
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
    }

    private static void requireSegments(MemorySegment packed, MemorySegment scales, ScaleLayout layout, long rows,
            long k, MemorySegment out, int outBytesPerElement) {
        Objects.requireNonNull(layout, "layout");
        requireShape(rows, k);
        requireAtLeast(packed, "packed", rows * k / 2);
        requireAtLeast(scales, "scales", layout.bytes(rows, k));
        requireAtLeast(out, "out", rows * k * outBytesPerElement);
    }

    private static void requireAtLeast(MemorySegment segment, String name, long bytes) {
        Objects.requireNonNull(segment, name);
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException(name + " holds " + segment.byteSize() + " bytes; expected at least "
                    + bytes);
        }
    }
}
