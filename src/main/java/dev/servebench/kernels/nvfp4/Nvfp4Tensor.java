package dev.servebench.kernels.nvfp4;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * An NVFP4 weight tensor {@code [rows, k]} as a checkpoint stores it (docs/kernels-nvfp4.md, Block size and
 * checkpoint tensors): packed E2M1 pairs ({@code rows * k / 2} bytes, element 2i in the low nibble of byte
 * i), E4M3 block scales in {@code layout}, and the per-tensor decode scale {@code globalScale} (the
 * checkpoint's {@code weight_scale_2}, multiplied in).
 *
 * <p>The arrays are held, not copied: tensors reach hundreds of MiB. Equality compares their contents.
 */
public record Nvfp4Tensor(byte[] packed, byte[] scales, ScaleLayout layout, float globalScale, int rows, int k) {

    /** Alignment of native copies, so kernels can use aligned and streaming accesses. */
    private static final long SEGMENT_ALIGNMENT = 64;

    public Nvfp4Tensor {
        Objects.requireNonNull(packed, "packed");
        Objects.requireNonNull(scales, "scales");
        Objects.requireNonNull(layout, "layout");
        Nvfp4Reference.requireShape(rows, k);
        long elements = (long) rows * k;
        if (packed.length != elements / 2) {
            throw new IllegalArgumentException("packed holds " + packed.length + " bytes; expected rows*K/2 = "
                    + elements / 2 + " for " + rows + " x " + k);
        }
        if (scales.length != layout.bytes(rows, k)) {
            throw new IllegalArgumentException("scales hold " + scales.length + " bytes; expected "
                    + layout.bytes(rows, k) + " for " + rows + " x " + k + " in layout " + layout);
        }
    }

    /**
     * Random codes and random finite, non-negative block scales (E4M3 0x00..0x7E), swizzle padding zero: a
     * benchmark input whose values cover the whole format.
     */
    public static Nvfp4Tensor random(RandomGenerator random, int rows, int k, ScaleLayout layout, float globalScale) {
        Objects.requireNonNull(layout, "layout");
        Nvfp4Reference.requireShape(rows, k);
        byte[] packed = new byte[Math.toIntExact((long) rows * k / 2)];
        random.nextBytes(packed);
        byte[] scales = new byte[Math.toIntExact(layout.bytes(rows, k))];
        for (int r = 0; r < rows; r++) {
            for (int column = 0; column < k / 16; column++) {
                scales[(int) layout.offset(r, column, k)] = (byte) random.nextInt(0x7F);
            }
        }
        return new Nvfp4Tensor(packed, scales, layout, globalScale, rows, k);
    }

    public long elements() {
        return (long) rows * k;
    }

    /** The reference fp32 values, row-major. */
    public float[] dequantize() {
        return Nvfp4Reference.dequantize(packed, scales, layout, globalScale, rows, k);
    }

    /** The same tensor with its scales rearranged into {@code target} (padding zero). */
    public Nvfp4Tensor withLayout(ScaleLayout target) {
        Objects.requireNonNull(target, "target");
        byte[] moved = new byte[Math.toIntExact(target.bytes(rows, k))];
        for (int r = 0; r < rows; r++) {
            for (int column = 0; column < k / 16; column++) {
                moved[(int) target.offset(r, column, k)] = scales[(int) layout.offset(r, column, k)];
            }
        }
        return new Nvfp4Tensor(packed, moved, target, globalScale, rows, k);
    }

    /** A 64-byte aligned native copy of {@link #packed()}. */
    public MemorySegment packedSegment(Arena arena) {
        return copyOf(packed, arena);
    }

    /** A 64-byte aligned native copy of {@link #scales()}. */
    public MemorySegment scalesSegment(Arena arena) {
        return copyOf(scales, arena);
    }

    private static MemorySegment copyOf(byte[] bytes, Arena arena) {
        MemorySegment segment = arena.allocate(bytes.length, SEGMENT_ALIGNMENT);
        segment.copyFrom(MemorySegment.ofArray(bytes));
        return segment;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Nvfp4Tensor that && rows == that.rows && k == that.k && layout == that.layout
                && Float.floatToIntBits(globalScale) == Float.floatToIntBits(that.globalScale)
                && Arrays.equals(packed, that.packed) && Arrays.equals(scales, that.scales);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(packed), Arrays.hashCode(scales), layout, globalScale, rows, k);
    }

    /** Shape and scales; the bytes only while they are short enough to read. */
    @Override
    public String toString() {
        String bytes = packed.length <= 32
                ? ", packed=" + HexFormat.of().formatHex(packed) + ", scales=" + HexFormat.of().formatHex(scales)
                : "";
        return "Nvfp4Tensor[" + rows + " x " + k + ", layout=" + layout + ", globalScale=" + globalScale + bytes + "]";
    }
}
