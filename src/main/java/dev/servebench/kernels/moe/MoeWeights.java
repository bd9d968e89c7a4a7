package dev.servebench.kernels.moe;

import dev.servebench.kernels.Segments;
import dev.servebench.kernels.nvfp4.E4m3;
import dev.servebench.kernels.nvfp4.Nvfp4Reference;
import dev.servebench.kernels.nvfp4.ScaleLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * NVFP4 expert weights in native memory, in the layout {@code sb_moe_w4a16} reads (docs/kernels-moe.md, Call
 * contract and weight layout):
 * <ul>
 *   <li>{@code w13Packed} [E, 2I, H/2]: rows 0..I-1 are up (w3), rows I..2I-1 gate (w1), element 2i in
 *       the low nibble of byte i; {@code w13Scales} linear E4M3 [E, 2I, H/16]; {@code w13Global} fp32 [E];</li>
 *   <li>{@code w2Packed} [E, H, I/2]; {@code w2Scales} [E, H, I/16]; {@code w2Global} fp32 [E].</li>
 * </ul>
 * The global scales are the checkpoint's {@code weight_scale_2} (decode form, multiplied in).
 */
public final class MoeWeights {

    /** E4M3 codes 0x70..0x7E are 128..448: the top two binades, where ModelOpt puts most block scales. */
    private static final int SCALE_CODE_LOW = 0x70;
    private static final int SCALE_CODE_COUNT = 15;
    /** Root mean square of the 16 E2M1 values: sqrt(68.5 / 8). */
    private static final double E2M1_RMS = Math.sqrt(68.5 / 8);

    private final MoeShape shape;
    private final MemorySegment w13Packed;
    private final MemorySegment w13Scales;
    private final MemorySegment w13Global;
    private final MemorySegment w2Packed;
    private final MemorySegment w2Scales;
    private final MemorySegment w2Global;

    /** Wraps native segments of at least the sizes the shape needs. */
    public MoeWeights(MoeShape shape, MemorySegment w13Packed, MemorySegment w13Scales, MemorySegment w13Global,
            MemorySegment w2Packed, MemorySegment w2Scales, MemorySegment w2Global) {
        this.shape = Objects.requireNonNull(shape, "shape");
        this.w13Packed = Segments.requireBytes(w13Packed, "w13Packed", shape.w13Elements() / 2);
        this.w13Scales = Segments.requireBytes(w13Scales, "w13Scales", shape.w13Elements() / 16);
        this.w13Global = Segments.requireBytes(w13Global, "w13Global", 4L * shape.experts());
        this.w2Packed = Segments.requireBytes(w2Packed, "w2Packed", shape.w2Elements() / 2);
        this.w2Scales = Segments.requireBytes(w2Scales, "w2Scales", shape.w2Elements() / 16);
        this.w2Global = Segments.requireBytes(w2Global, "w2Global", 4L * shape.experts());
    }

    /** Copies explicit arrays (exact sizes required) into {@code arena}. */
    public static MoeWeights of(MoeShape shape, byte[] w13Packed, byte[] w13Scales, float[] w13Global, byte[] w2Packed,
            byte[] w2Scales, float[] w2Global, Arena arena) {
        Objects.requireNonNull(shape, "shape");
        return new MoeWeights(shape,
                copy(arena, "w13Packed", w13Packed, shape.w13Elements() / 2),
                copy(arena, "w13Scales", w13Scales, shape.w13Elements() / 16),
                copy(arena, "w13Global", w13Global, shape.experts()),
                copy(arena, "w2Packed", w2Packed, shape.w2Elements() / 2),
                copy(arena, "w2Scales", w2Scales, shape.w2Elements() / 16),
                copy(arena, "w2Global", w2Global, shape.experts()));
    }

    /**
     * Seeded random weights, fast enough for GLM5_TP8 (~680 MB): uniform E2M1 codes (all 16, so -0 too),
     * block scales uniform over E4M3 128..448, and per-expert global scales near
     * {@code 1 / (rms(E2M1) * rms(scale) * sqrt(K))} (times 0.75..1.25, so experts differ), which keeps
     * GEMM outputs O(1) for O(1) activations.
     */
    public static MoeWeights random(MoeShape shape, long seed, Arena arena) {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(arena, "arena");
        SplittableRandom random = new SplittableRandom(seed);
        MemorySegment w13Packed = randomBytes(arena, shape.w13Elements() / 2, random, false);
        MemorySegment w13Scales = randomBytes(arena, shape.w13Elements() / 16, random, true);
        MemorySegment w2Packed = randomBytes(arena, shape.w2Elements() / 2, random, false);
        MemorySegment w2Scales = randomBytes(arena, shape.w2Elements() / 16, random, true);
        double scaleRms = 0;
        for (int i = 0; i < SCALE_CODE_COUNT; i++) {
            double s = E4m3.decode(SCALE_CODE_LOW + i);
            scaleRms += s * s / SCALE_CODE_COUNT;
        }
        scaleRms = Math.sqrt(scaleRms);
        float[] g13 = new float[shape.experts()];
        float[] g2 = new float[shape.experts()];
        for (int e = 0; e < shape.experts(); e++) {
            g13[e] = (float) ((0.75 + 0.5 * random.nextDouble()) / (E2M1_RMS * scaleRms * Math.sqrt(shape.hidden())));
            g2[e] = (float) ((0.75 + 0.5 * random.nextDouble()) / (E2M1_RMS * scaleRms * Math.sqrt(shape.inter())));
        }
        return new MoeWeights(shape, w13Packed, w13Scales, copy(arena, "w13Global", g13, g13.length),
                w2Packed, w2Scales, copy(arena, "w2Global", g2, g2.length));
    }

    public MoeShape shape() {
        return shape;
    }

    public MemorySegment w13Packed() {
        return w13Packed;
    }

    public MemorySegment w13Scales() {
        return w13Scales;
    }

    public MemorySegment w13Global() {
        return w13Global;
    }

    public MemorySegment w2Packed() {
        return w2Packed;
    }

    public MemorySegment w2Scales() {
        return w2Scales;
    }

    public MemorySegment w2Global() {
        return w2Global;
    }

    public float w13Global(int expert) {
        return w13Global.getAtIndex(ValueLayout.JAVA_FLOAT, checkExpert(expert));
    }

    public float w2Global(int expert) {
        return w2Global.getAtIndex(ValueLayout.JAVA_FLOAT, checkExpert(expert));
    }

    /** Expert {@code e}'s up projection dequantised to fp32, row-major [I][H]. */
    public float[] up(int expert) {
        return dequantize(w13Packed, w13Scales, (long) checkExpert(expert) * 2 * shape.inter(), shape.inter(),
                shape.hidden(), w13Global(expert));
    }

    /** Expert {@code e}'s gate projection dequantised to fp32, row-major [I][H]. */
    public float[] gate(int expert) {
        return dequantize(w13Packed, w13Scales, (long) checkExpert(expert) * 2 * shape.inter() + shape.inter(),
                shape.inter(), shape.hidden(), w13Global(expert));
    }

    /** Expert {@code e}'s down projection dequantised to fp32, row-major [H][I]. */
    public float[] down(int expert) {
        return dequantize(w2Packed, w2Scales, (long) checkExpert(expert) * shape.hidden(), shape.hidden(),
                shape.inter(), w2Global(expert));
    }

    private static float[] dequantize(MemorySegment packed, MemorySegment scales, long firstRow, int rows, int k,
            float global) {
        byte[] packedRows = packed.asSlice(firstRow * k / 2, (long) rows * k / 2).toArray(ValueLayout.JAVA_BYTE);
        byte[] scaleRows = scales.asSlice(firstRow * k / 16, (long) rows * k / 16).toArray(ValueLayout.JAVA_BYTE);
        return Nvfp4Reference.dequantize(packedRows, scaleRows, ScaleLayout.LINEAR, global, rows, k);
    }

    private int checkExpert(int expert) {
        if (expert < 0 || expert >= shape.experts()) {
            throw new IndexOutOfBoundsException("expert " + expert + " out of range; expected 0.." + (shape.experts() - 1));
        }
        return expert;
    }

    /**
     * Bytes from a SplittableRandom, 8 per nextLong, generated into a chunk and copied in bulk; scale
     * bytes are mapped into 0x70..0x7E.
     */
    private static MemorySegment randomBytes(Arena arena, long bytes, SplittableRandom random, boolean scales) {
        MemorySegment segment = arena.allocate(bytes, 64);
        long[] chunk = new long[1 << 16];
        for (long offset = 0; offset < bytes; offset += 8L * chunk.length) {
            int longs = (int) Math.min(chunk.length, (bytes - offset + 7) / 8);
            for (int i = 0; i < longs; i++) {
                long value = random.nextLong();
                chunk[i] = scales ? toScaleCodes(value) : value;
            }
            long length = Math.min(8L * longs, bytes - offset);
            MemorySegment.copy(MemorySegment.ofArray(chunk), 0, segment, offset, length);
        }
        return segment;
    }

    /** Each byte b of the value becomes 0x70 + floor(b * 15 / 256). */
    private static long toScaleCodes(long value) {
        long mapped = 0;
        for (int i = 0; i < 8; i++) {
            long b = (value >>> (8 * i)) & 0xFF;
            mapped |= (SCALE_CODE_LOW + ((b * SCALE_CODE_COUNT) >>> 8)) << (8 * i);
        }
        return mapped;
    }

    private static MemorySegment copy(Arena arena, String name, byte[] values, long expected) {
        Objects.requireNonNull(values, name);
        if (values.length != expected) {
            throw new IllegalArgumentException(name + " holds " + values.length + " bytes; expected " + expected);
        }
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, values);
    }

    private static MemorySegment copy(Arena arena, String name, float[] values, long expected) {
        Objects.requireNonNull(values, name);
        if (values.length != expected) {
            throw new IllegalArgumentException(name + " holds " + values.length + " floats; expected " + expected);
        }
        return arena.allocateFrom(ValueLayout.JAVA_FLOAT, values);
    }
}
