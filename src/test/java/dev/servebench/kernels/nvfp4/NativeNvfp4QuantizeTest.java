package dev.servebench.kernels.nvfp4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.nvfp4.Nvfp4Quantizer.ZeroBlock;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code sb_nvfp4_quantize} of every build against the Java quantiser (ZERO_SCALE), byte for byte. */
class NativeNvfp4QuantizeTest {

    static Stream<Arguments> variantsAndLayouts() {
        return Stream.of(KernelLibrary.Variant.values()).flatMap(variant -> Stream.of(ScaleLayout.values())
                .map(layout -> Arguments.of(variant, layout)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variantsAndLayouts")
    void nativeQuantizerEqualsTheJavaQuantizerBitForBit(KernelLibrary.Variant variant, ScaleLayout layout) {
        NativeNvfp4 nvfp4 = new NativeNvfp4(KernelLibrary.load(variant));
        SplittableRandom random = new SplittableRandom(23);
        int rows = 130;
        int k = 80; // 5 scale columns: a partial 4-column swizzle group, and 126 padding rows in the last tile
        for (float dataScale : new float[] {1f, 3.1e-3f, 7e5f}) {
            float[] values = Nvfp4TestData.edgeCaseValues(random, rows, k, dataScale);
            // The checkpoint's choice, and one 8x too small so that large blocks saturate the E4M3 scale.
            float fitted = Nvfp4Quantizer.globalScaleFor(values);
            for (float global : new float[] {fitted, fitted / 8, dataScale}) {
                Nvfp4Tensor expected = Nvfp4Quantizer.quantize(values, rows, k, global, layout, ZeroBlock.ZERO_SCALE);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment packed = arena.allocate(expected.packed().length);
                    MemorySegment scales = arena.allocate(expected.scales().length);
                    packed.fill((byte) 0xAB); // the kernel must overwrite every byte, padding included
                    scales.fill((byte) 0xAB);
                    nvfp4.quantize(Nvfp4TestData.nativeCopy(arena, values), rows, k, global, layout, packed, scales);
                    String what = variant + " " + layout + " global " + global;
                    assertThat(hex(scales)).as("scales, " + what).isEqualTo(hex(expected.scales()));
                    assertThat(hex(packed)).as("packed, " + what).isEqualTo(hex(expected.packed()));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variantsAndLayouts")
    void swizzlePaddingIsZeroAndEveryRealScaleIsWhereTheLayoutSays(KernelLibrary.Variant variant, ScaleLayout layout) {
        NativeNvfp4 nvfp4 = new NativeNvfp4(KernelLibrary.load(variant));
        int rows = 130;
        int k = 80;
        float[] values = new float[rows * k];
        for (int i = 0; i < values.length; i++) {
            values[i] = 6f * E4m3.decode(expectedScale(i / 16)); // amax / 6 is exactly that scale
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment scales = arena.allocate(layout.bytes(rows, k));
            scales.fill((byte) 0xAB);
            nvfp4.quantize(Nvfp4TestData.nativeCopy(arena, values), rows, k, 1f, layout, arena.allocate(rows * k / 2),
                    scales);
            boolean[] real = new boolean[Math.toIntExact(layout.bytes(rows, k))];
            for (int r = 0; r < rows; r++) {
                for (int column = 0; column < k / 16; column++) {
                    int offset = (int) layout.offset(r, column, k);
                    real[offset] = true;
                    assertThat(scales.get(ValueLayout.JAVA_BYTE, offset) & 0xFF).as("row %d column %d", r, column)
                            .isEqualTo(expectedScale(r * (k / 16) + column));
                }
            }
            for (int offset = 0; offset < real.length; offset++) {
                if (!real[offset]) {
                    assertThat(scales.get(ValueLayout.JAVA_BYTE, offset)).as("padding byte %d", offset).isZero();
                }
            }
            long padding = real.length - (long) rows * (k / 16);
            assertThat(padding).isEqualTo(layout == ScaleLayout.LINEAR ? 0 : 256 * 8 - 130 * 5);
        }
    }

    /** Block b's scale code: every non-zero finite code in turn. */
    private static int expectedScale(int block) {
        return 1 + block % 0x7E;
    }

    private static String hex(MemorySegment segment) {
        return HexFormat.of().formatHex(segment.toArray(ValueLayout.JAVA_BYTE));
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
