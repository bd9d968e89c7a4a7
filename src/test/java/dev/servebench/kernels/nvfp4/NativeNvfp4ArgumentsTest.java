package dev.servebench.kernels.nvfp4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bad input: the Java binding names the argument before calling native code, and the C functions themselves
 * answer SB_ERR_ARGUMENT (or -1) without writing their outputs when called directly.
 */
class NativeNvfp4ArgumentsTest {

    private static final ScaleLayout LINEAR = ScaleLayout.LINEAR;
    private final NativeNvfp4 nvfp4 = new NativeNvfp4(KernelLibrary.load());

    @Test
    void dequantRejectsBadShapesSegmentsAndThreadsNamingTheArgument() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = arena.allocate(16 * 32 / 2);
            MemorySegment scales = arena.allocate(16 * 2);
            MemorySegment out = arena.allocate(16 * 32 * 4, 64);
            assertThatThrownBy(() -> nvfp4.dequantF32(packed, scales, LINEAR, 1f, 16, 40, out, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("K = 40")
                    .hasMessageContaining("multiple of 16");
            assertThatThrownBy(() -> nvfp4.dequantF32(packed, scales, LINEAR, 1f, 0, 32, out, 1))
                    .hasMessageContaining("rows = 0");
            assertThatThrownBy(() -> nvfp4.dequantF32(packed, scales, null, 1f, 16, 32, out, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("layout");
            assertThatThrownBy(() -> nvfp4.dequantF32(null, scales, LINEAR, 1f, 16, 32, out, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("packed is null");
            assertThatThrownBy(() -> nvfp4.dequantF32(MemorySegment.ofArray(new byte[256]), scales, LINEAR, 1f, 16, 32,
                    out, 1)).hasMessageContaining("packed is a heap segment");
            assertThatThrownBy(() -> nvfp4.dequantF32(packed, scales.asSlice(1), LINEAR, 1f, 16, 32, out, 1))
                    .hasMessageContaining("scales holds 31 bytes; expected at least 32");
            assertThatThrownBy(() -> nvfp4.dequantF32(packed, scales, ScaleLayout.SWIZZLED_128X4, 1f, 16, 32, out, 1))
                    .hasMessageContaining("scales holds 32 bytes; expected at least 512");
            assertThatThrownBy(() -> nvfp4.dequantF32(packed, scales, LINEAR, 1f, 16, 32, out.asSlice(4), 1))
                    .hasMessageContaining("out holds 2044 bytes; expected at least 2048");
            assertThatThrownBy(() -> nvfp4.dequantBf16(packed, scales, LINEAR, 1f, 16, 32, out.asSlice(1, 1024), 1))
                    .hasMessageContaining("out starts at address").hasMessageContaining("expected a multiple of 2");
            assertThatThrownBy(() -> nvfp4.dequantBf16(packed, scales, LINEAR, 1f, 16, 32, out, 0))
                    .hasMessageContaining("threads = 0");
            assertThatThrownBy(() -> nvfp4.scaleBytes(1, 24, LINEAR)).hasMessageContaining("K = 24");
        }
    }

    @Test
    void quantizeRejectsBadGlobalScalesAndNonFiniteValuesBeforeCallingNative() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(32 * 4, 64);
            MemorySegment packed = arena.allocate(16);
            MemorySegment scales = arena.allocate(2);
            for (float bad : new float[] {Float.NaN, -1f, 0f, Float.POSITIVE_INFINITY, 1e-40f}) {
                assertThatThrownBy(() -> nvfp4.quantize(values, 1, 32, bad, LINEAR, packed, scales))
                        .as("global scale %s", bad).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("global scale = " + bad).hasMessageContaining("positive, finite, normal");
            }
            values.setAtIndex(ValueLayout.JAVA_FLOAT, 17, Float.NaN);
            assertThatThrownBy(() -> nvfp4.quantize(values, 1, 32, 1f, LINEAR, packed, scales))
                    .hasMessageContaining("values[17] = NaN");
            assertThatThrownBy(() -> nvfp4.quantize(values, 1, 32, 1f, LINEAR, packed.asSlice(1), scales))
                    .hasMessageContaining("packed holds 15 bytes; expected at least 16");
            assertThatThrownBy(() -> nvfp4.quantize(MemorySegment.ofArray(new float[32]), 1, 32, 1f, LINEAR, packed,
                    scales)).hasMessageContaining("values is a heap segment");
            assertThatThrownBy(() -> nvfp4.quantize(values, 1, 31, 1f, LINEAR, packed, scales))
                    .hasMessageContaining("K = 31");
        }
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void theCFunctionsRejectBadArgumentsWithoutWritingTheirOutputs(KernelLibrary.Variant variant) throws Throwable {
        KernelLibrary library = KernelLibrary.load(variant);
        MethodHandle scaleBytes = library.handle("sb_nvfp4_scale_bytes", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        assertThat((long) scaleBytes.invokeExact(130L, 80L, 1)).isEqualTo(256L * 8);
        assertThat((long) scaleBytes.invokeExact(130L, 80L, 0)).isEqualTo(130L * 5);
        assertThat((long) scaleBytes.invokeExact(1L, 24L, 0)).isEqualTo(-1L);
        assertThat((long) scaleBytes.invokeExact(0L, 16L, 0)).isEqualTo(-1L);
        assertThat((long) scaleBytes.invokeExact(1L, 16L, 2)).isEqualTo(-1L);
        assertThat((long) scaleBytes.invokeExact(Long.MAX_VALUE / 16, 16L, 0)).isEqualTo(-1L);

        MethodHandle dequant = library.handle("sb_nvfp4_dequant_f32", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_FLOAT,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        MethodHandle quantize = library.handle("sb_nvfp4_quantize", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_FLOAT,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = arena.allocate(16);
            MemorySegment scales = arena.allocate(512);
            MemorySegment out = arena.allocate(32 * 4 + 4, 64);
            out.fill((byte) 0x5A);
            scales.fill((byte) 0x5A);
            packed.fill((byte) 0x5A);
            MemorySegment values = arena.allocate(32 * 4, 64);
            assertThat((int) dequant.invokeExact(packed, scales, 0, 1f, 1L, 24L, out, 1)).as("K = 24").isEqualTo(1);
            assertThat((int) dequant.invokeExact(packed, scales, 5, 1f, 1L, 32L, out, 1)).as("layout 5").isEqualTo(1);
            assertThat((int) dequant.invokeExact(MemorySegment.NULL, scales, 0, 1f, 1L, 32L, out, 1)).isEqualTo(1);
            assertThat((int) dequant.invokeExact(packed, scales, 0, 1f, 1L, 32L, out, 0)).as("threads 0").isEqualTo(1);
            assertThat((int) dequant.invokeExact(packed, scales, 0, 1f, 1L, 32L, out.asSlice(2), 1)).as("unaligned")
                    .isEqualTo(1);
            assertThat((int) quantize.invokeExact(values, 1L, 32L, Float.NaN, 0, packed, scales)).isEqualTo(1);
            assertThat((int) quantize.invokeExact(values, 1L, 32L, 0f, 0, packed, scales)).isEqualTo(1);
            assertThat((int) quantize.invokeExact(values, 1L, 32L, 1e-40f, 0, packed, scales)).isEqualTo(1);
            values.setAtIndex(ValueLayout.JAVA_FLOAT, 31, Float.POSITIVE_INFINITY);
            assertThat((int) quantize.invokeExact(values, 1L, 32L, 1f, 1, packed, scales)).as("Inf value").isEqualTo(1);
            assertThat(out.elements(ValueLayout.JAVA_BYTE)).allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == 0x5A);
            assertThat(scales.elements(ValueLayout.JAVA_BYTE)).allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == 0x5A);
            assertThat(packed.elements(ValueLayout.JAVA_BYTE)).allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == 0x5A);
        }
    }
}
