package dev.servebench.kernels.allreduce;

import dev.servebench.kernels.nvfp4.Bf16;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One rank's scratch for the element loop every algorithm shares (the Java twin of {@code sb_ar_sum}):
 * {@code acc = partial[i]} or {@code fp32(sources[0][i])}, then {@code acc += fp32(sources[k][i])} for the
 * remaining sources in order, then the fp32 partial and/or bf16 (RNE) results are stored. Work is done in
 * blocks copied to arrays, so all sources of an element are read before any output is written (outputs
 * may alias a source) and the array loops stay simple enough for the JIT.
 */
final class Bf16Accumulator {

    private static final ValueLayout.OfShort BF16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfFloat FP32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final int BLOCK = 2048;

    private final float[] acc = new float[BLOCK];
    private final short[] bits = new short[BLOCK];

    /**
     * Elements [begin, end). {@code partial} (fp32) may be null; {@code out32}, {@code out16} and
     * {@code alsoOut16} are each optional (null).
     */
    void sum(MemorySegment partial, MemorySegment[] sources, int sourceCount, MemorySegment out32,
            MemorySegment out16, MemorySegment alsoOut16, long begin, long end) {
        for (long base = begin; base < end; base += BLOCK) {
            int n = (int) Math.min(BLOCK, end - base);
            int first;
            if (partial != null) {
                MemorySegment.copy(partial, FP32, base * 4, acc, 0, n);
                first = 0;
            } else {
                MemorySegment.copy(sources[0], BF16, base * 2, bits, 0, n);
                for (int i = 0; i < n; i++) {
                    acc[i] = Bf16.toFloat(bits[i]);
                }
                first = 1;
            }
            for (int k = first; k < sourceCount; k++) {
                MemorySegment.copy(sources[k], BF16, base * 2, bits, 0, n);
                for (int i = 0; i < n; i++) {
                    acc[i] += Bf16.toFloat(bits[i]);
                }
            }
            if (out32 != null) {
                MemorySegment.copy(acc, 0, out32, FP32, base * 4, n);
            }
            if (out16 != null || alsoOut16 != null) {
                for (int i = 0; i < n; i++) {
                    bits[i] = Bf16.fromFloat(acc[i]);
                }
                if (out16 != null) {
                    MemorySegment.copy(bits, 0, out16, BF16, base * 2, n);
                }
                if (alsoOut16 != null) {
                    MemorySegment.copy(bits, 0, alsoOut16, BF16, base * 2, n);
                }
            }
        }
    }
}
