package dev.servebench.kernels.nvfp4;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.Segments;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * The NVFP4 functions of a kernel library ({@code sb_nvfp4_*}). Every argument is checked here before the
 * native call, so a wrong size, layout, heap segment or scale is a Java exception naming the argument.
 * Symbols are looked up on first use: a library that only dequantises can still be benchmarked.
 */
public final class NativeNvfp4 {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout ADDRESS = ValueLayout.ADDRESS;

    private static final FunctionDescriptor SCALE_BYTES = FunctionDescriptor.of(LONG, LONG, LONG, INT);
    /** (packed, scales, layout, global_scale, rows, k, out, threads) -> status, for both output types. */
    private static final FunctionDescriptor DEQUANT = FunctionDescriptor.of(INT,
            ADDRESS, ADDRESS, INT, FLOAT, LONG, LONG, ADDRESS, INT);
    private static final FunctionDescriptor QUANTIZE = FunctionDescriptor.of(INT,
            ADDRESS, LONG, LONG, FLOAT, INT, ADDRESS, ADDRESS);

    private final KernelLibrary library;

    public NativeNvfp4(KernelLibrary library) {
        this.library = Objects.requireNonNull(library, "library");
    }

    /** {@code sb_nvfp4_scale_bytes}: the scale buffer size the library expects for this shape and layout. */
    public long scaleBytes(long rows, long k, ScaleLayout layout) {
        Objects.requireNonNull(layout, "layout");
        Nvfp4Reference.requireShape(rows, k);
        try {
            long bytes = (long) handle("sb_nvfp4_scale_bytes", SCALE_BYTES).invokeExact(rows, k, layout.code());
            if (bytes < 0) {
                throw new IllegalArgumentException("sb_nvfp4_scale_bytes rejected rows = " + rows + ", K = " + k
                        + ", layout " + layout);
            }
            return bytes;
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** {@code sb_nvfp4_dequant_f32}: {@code rows * k} fp32 values to {@code out}, using {@code threads} threads. */
    public void dequantF32(MemorySegment packed, MemorySegment scales, ScaleLayout layout, float globalScale,
            long rows, long k, MemorySegment out, int threads) {
        requireDequant(packed, scales, layout, rows, k, out, Float.BYTES, threads);
        try {
            int status = (int) handle("sb_nvfp4_dequant_f32", DEQUANT).invokeExact(packed, scales, layout.code(),
                    globalScale, rows, k, out, threads);
            KernelLibrary.check(status, "sb_nvfp4_dequant_f32");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** {@code sb_nvfp4_dequant_bf16}: {@code rows * k} bf16 bit patterns (2 bytes each) to {@code out}. */
    public void dequantBf16(MemorySegment packed, MemorySegment scales, ScaleLayout layout, float globalScale,
            long rows, long k, MemorySegment out, int threads) {
        requireDequant(packed, scales, layout, rows, k, out, 2, threads);
        try {
            int status = (int) handle("sb_nvfp4_dequant_bf16", DEQUANT).invokeExact(packed, scales, layout.code(),
                    globalScale, rows, k, out, threads);
            KernelLibrary.check(status, "sb_nvfp4_dequant_bf16");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /**
     * {@code sb_nvfp4_quantize}: the exact-math quantiser with the GPU's zero-block convention, equal bit for
     * bit to {@link Nvfp4Quantizer#quantize} with {@link Nvfp4Quantizer.ZeroBlock#ZERO_SCALE}. {@code values}
     * holds {@code rows * k} finite fp32 values; swizzle padding in {@code scales} is written as 0.
     */
    public void quantize(MemorySegment values, long rows, long k, float globalScale, ScaleLayout layout,
            MemorySegment packed, MemorySegment scales) {
        Objects.requireNonNull(layout, "layout");
        Nvfp4Reference.requireShape(rows, k);
        Nvfp4Quantizer.requireGlobalScale(globalScale);
        requireElementAligned(Segments.requireBytes(values, "values", rows * k * Float.BYTES), "values", Float.BYTES);
        Segments.requireBytes(packed, "packed", rows * k / 2);
        Segments.requireBytes(scales, "scales", layout.bytes(rows, k));
        for (long i = 0; i < rows * k; i++) {
            float value = values.getAtIndex(FLOAT, i);
            if (!Float.isFinite(value)) {
                throw new IllegalArgumentException("values[" + i + "] = " + value + "; expected a finite float");
            }
        }
        try {
            int status = (int) handle("sb_nvfp4_quantize", QUANTIZE).invokeExact(values, rows, k, globalScale,
                    layout.code(), packed, scales);
            KernelLibrary.check(status, "sb_nvfp4_quantize");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    private MethodHandle handle(String name, FunctionDescriptor descriptor) {
        return library.handle(name, descriptor);
    }

    private static void requireDequant(MemorySegment packed, MemorySegment scales, ScaleLayout layout, long rows,
            long k, MemorySegment out, int outBytesPerElement, int threads) {
        Objects.requireNonNull(layout, "layout");
        Nvfp4Reference.requireShape(rows, k);
        Segments.requireBytes(packed, "packed", rows * k / 2);
        Segments.requireBytes(scales, "scales", layout.bytes(rows, k));
        Segments.requireBytes(out, "out", rows * k * outBytesPerElement);
        requireElementAligned(out, "out", outBytesPerElement);
        Segments.requireThreads(threads);
    }

    /** C requires a float or uint16_t pointer to be aligned to its size. */
    private static void requireElementAligned(MemorySegment segment, String name, int bytes) {
        if (segment.address() % bytes != 0) {
            throw new IllegalArgumentException(name + " starts at address 0x" + Long.toHexString(segment.address())
                    + "; expected a multiple of " + bytes + " (its element size)");
        }
    }
}
