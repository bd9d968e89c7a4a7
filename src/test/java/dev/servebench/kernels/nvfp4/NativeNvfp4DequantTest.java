package dev.servebench.kernels.nvfp4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every native build against the Java reference, bit for bit: fp32 bits equal, bf16 bits equal, and where the
 * reference is NaN the native value is the documented quiet NaN (0x7FC00000, bf16 0x7FC0).
 */
class NativeNvfp4DequantTest {

    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    static Stream<Arguments> variantsAndLayouts() {
        return Stream.of(KernelLibrary.Variant.values()).flatMap(variant -> Stream.of(ScaleLayout.values())
                .map(layout -> Arguments.of(variant, layout)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variantsAndLayouts")
    void everyScaleCodeTimesEveryElementCodeMatchesTheReference(KernelLibrary.Variant variant, ScaleLayout layout) {
        NativeNvfp4 nvfp4 = new NativeNvfp4(KernelLibrary.load(variant));
        // 1: the products themselves; 0.0123: one rounding; 3e-39: subnormal results; -2.5: sign flips;
        // 1 + 2^-8 and 1 + 2^-7 + 2^-8: power-of-two products land exactly halfway between two bf16 values,
        // once with an even and once with an odd lower neighbour (round half to even).
        float[] globals = {1f, 0.0123f, 3e-39f, -2.5f, Float.intBitsToFloat(0x3F808000), Float.intBitsToFloat(0x3F818000)};
        for (float global : globals) {
            assertMatchesReference(nvfp4, Nvfp4TestData.everyScaleAndCode(130, layout, global), 3);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variantsAndLayouts")
    void oddBlockCountsAndUnalignedOutputsMatchTheReference(KernelLibrary.Variant variant, ScaleLayout layout) {
        NativeNvfp4 nvfp4 = new NativeNvfp4(KernelLibrary.load(variant));
        SplittableRandom random = new SplittableRandom(7);
        // K/16 = 1, 5 and 7: single blocks, a 4-column swizzle group plus a partial one, odd pairs.
        for (int k : new int[] {16, 80, 112}) {
            Nvfp4Tensor tensor = Nvfp4Tensor.random(random, 131, k, layout, 0.37f);
            assertMatchesReference(nvfp4, tensor, 2);
            assertMatchesReference(nvfp4, tensor, 1);
        }
    }

    /** 1024 x 8192: fp32 and bf16 outputs of 32 and 16 MiB, large enough for the streaming-store path. */
    @Test
    void largeTensorsTakingTheStreamingPathMatchTheReference() {
        Nvfp4Tensor tensor = Nvfp4Tensor.random(new SplittableRandom(11), 1024, 8192, ScaleLayout.LINEAR, 0.02f);
        try (Arena arena = Arena.ofConfined()) {
            Reference reference = Reference.of(arena, tensor);
            for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
                assertNativeMatches(new NativeNvfp4(KernelLibrary.load(variant)), reference, 2, 0);
            }
        }
    }

    /** Both outputs, aligned to 64 bytes and once more one element past that, where stores cannot align. */
    private static void assertMatchesReference(NativeNvfp4 nvfp4, Nvfp4Tensor tensor, int threads) {
        try (Arena arena = Arena.ofConfined()) {
            Reference reference = Reference.of(arena, tensor);
            assertNativeMatches(nvfp4, reference, threads, 0);
            assertNativeMatches(nvfp4, reference, threads, 1);
        }
    }

    /** The tensor in native memory with the Java reference's outputs. */
    private record Reference(Nvfp4Tensor tensor, MemorySegment packed, MemorySegment scales, MemorySegment f32,
            MemorySegment bf16, Arena arena) {

        static Reference of(Arena arena, Nvfp4Tensor tensor) {
            MemorySegment packed = tensor.packedSegment(arena);
            MemorySegment scales = tensor.scalesSegment(arena);
            MemorySegment f32 = arena.allocate(tensor.elements() * 4, 64);
            MemorySegment bf16 = arena.allocate(tensor.elements() * 2, 64);
            Nvfp4Reference.dequantizeF32(packed, scales, tensor.layout(), tensor.globalScale(), tensor.rows(),
                    tensor.k(), f32);
            Nvfp4Reference.dequantizeBf16(packed, scales, tensor.layout(), tensor.globalScale(), tensor.rows(),
                    tensor.k(), bf16);
            return new Reference(tensor, packed, scales, f32, bf16, arena);
        }
    }

    private static void assertNativeMatches(NativeNvfp4 nvfp4, Reference reference, int threads, int offset) {
        Nvfp4Tensor tensor = reference.tensor();
        long n = tensor.elements();
        MemorySegment f32 = reference.arena().allocate(n * 4 + 64, 64).asSlice(offset * 4L, n * 4);
        MemorySegment bf16 = reference.arena().allocate(n * 2 + 64, 64).asSlice(offset * 2L, n * 2);
        f32.fill((byte) 0x5A);
        bf16.fill((byte) 0x5A);
        nvfp4.dequantF32(reference.packed(), reference.scales(), tensor.layout(), tensor.globalScale(), tensor.rows(),
                tensor.k(), f32, threads);
        nvfp4.dequantBf16(reference.packed(), reference.scales(), tensor.layout(), tensor.globalScale(),
                tensor.rows(), tensor.k(), bf16, threads);
        String what = tensor + " offset " + offset + " threads " + threads;
        assertSameF32(reference.f32(), f32, n, what);
        assertSameBf16(reference.bf16(), bf16, n, what);
    }

    private static void assertSameF32(MemorySegment expected, MemorySegment actual, long n, String what) {
        for (long i = 0; i < n; i++) {
            float reference = expected.getAtIndex(FLOAT, i);
            int want = Float.isNaN(reference) ? 0x7FC00000 : Float.floatToRawIntBits(reference);
            int got = Float.floatToRawIntBits(actual.getAtIndex(FLOAT, i));
            if (want != got) {
                assertThat(Integer.toHexString(got)).as("fp32 element %d of %s (reference %s)", i, what, reference)
                        .isEqualTo(Integer.toHexString(want));
            }
        }
    }

    private static void assertSameBf16(MemorySegment expected, MemorySegment actual, long n, String what) {
        for (long i = 0; i < n; i++) {
            short reference = expected.getAtIndex(SHORT, i);
            int want = Float.isNaN(Bf16.toFloat(reference)) ? 0x7FC0 : reference & 0xFFFF;
            int got = actual.getAtIndex(SHORT, i) & 0xFFFF;
            if (want != got) {
                assertThat(Integer.toHexString(got)).as("bf16 element %d of %s", i, what)
                        .isEqualTo(Integer.toHexString(want));
            }
        }
    }
}
