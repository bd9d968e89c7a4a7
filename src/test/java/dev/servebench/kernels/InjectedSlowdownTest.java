package dev.servebench.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.moe.MoeInputs;
import dev.servebench.kernels.moe.MoeShape;
import dev.servebench.kernels.moe.MoeWeights;
import dev.servebench.kernels.moe.NativeMoe;
import dev.servebench.kernels.moe.RoutingSkew;
import dev.servebench.kernels.nvfp4.NativeNvfp4;
import dev.servebench.kernels.nvfp4.Nvfp4Tensor;
import dev.servebench.kernels.nvfp4.ScaleLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The slowed library the kernel A/B acceptance uses as B ({@code make slow}, docs/gate.md "Kernel A/B") computes
 * exactly what the normal build does and says it is slowed; how much slower it is, the comparison measures.
 * Built here on demand (about 4 s of one core), as the Maven build does not make it.
 */
class InjectedSlowdownTest {

    private static KernelLibrary slowed;
    private static KernelLibrary normal;

    @BeforeAll
    static void buildTheSlowedLibrary() throws IOException, InterruptedException {
        Path out = KernelLibrary.BUILD_DIRECTORY.toAbsolutePath();
        Process make = new ProcessBuilder("make", "-s", "-C", "native", "slow", "OUT=" + out, "SLOW_PERCENTS=15")
                .redirectErrorStream(true).start();
        String log = new String(make.getInputStream().readAllBytes());
        assertThat(make.waitFor()).as("make slow: %s", log).isZero();
        slowed = KernelLibrary.load(out.resolve("injected").resolve("libservebench_kernels_slow15.so"));
        normal = KernelLibrary.load(KernelLibrary.Variant.DISPATCH);
    }

    @Test
    void theSlowedLibraryNamesItsSlowdown() {
        assertThat(slowed.implementation()).isEqualTo(normal.implementation() + " +15% injected slowdown");
    }

    @Test
    void dequantisationGivesTheSameBitsAsTheNormalBuild() {
        Nvfp4Tensor tensor = Nvfp4Tensor.random(new SplittableRandom(3), 256, 512, ScaleLayout.SWIZZLED_128X4, 0.01f);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = tensor.packedSegment(arena);
            MemorySegment scales = tensor.scalesSegment(arena);
            MemorySegment[] bf16 = {arena.allocate(tensor.elements() * 2, 64), arena.allocate(tensor.elements() * 2, 64)};
            MemorySegment[] f32 = {arena.allocate(tensor.elements() * 4, 64), arena.allocate(tensor.elements() * 4, 64)};
            KernelLibrary[] libraries = {normal, slowed};
            for (int i = 0; i < 2; i++) {
                NativeNvfp4 nvfp4 = new NativeNvfp4(libraries[i]);
                nvfp4.dequantBf16(packed, scales, tensor.layout(), tensor.globalScale(), tensor.rows(), tensor.k(),
                        bf16[i], 2);
                nvfp4.dequantF32(packed, scales, tensor.layout(), tensor.globalScale(), tensor.rows(), tensor.k(),
                        f32[i], 2);
            }
            assertThat(bf16[1].mismatch(bf16[0])).as("first differing bf16 byte").isEqualTo(-1);
            assertThat(f32[1].mismatch(f32[0])).as("first differing fp32 byte").isEqualTo(-1);
        }
    }

    @Test
    void theMoeLayerGivesTheSameBitsAsTheNormalBuild() {
        MoeShape shape = new MoeShape(512, 64, 16, 4);
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(shape, 7, arena);
            MoeInputs inputs = MoeInputs.random(shape, 9, 8, arena, RoutingSkew.UNIFORM);
            assertThat(forward(slowed, shape, weights, inputs)).containsExactly(forward(normal, shape, weights, inputs));
        }
    }

    @Test
    void aRejectedCallReturnsItsStatusUnchanged() throws Throwable {
        MethodHandle dequant = slowed.handle("sb_nvfp4_dequant_f32", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_FLOAT,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(64, 64);
            // k = 8 is no multiple of 16: SB_ERR_ARGUMENT (1), straight from the kernel, not the Java checks.
            int status = (int) dequant.invokeExact(buffer, buffer, 0, 1f, 1L, 8L, buffer, 1);
            assertThat(status).isEqualTo(1);
        }
    }

    private static float[] forward(KernelLibrary library, MoeShape shape, MoeWeights weights, MoeInputs inputs) {
        NativeMoe moe = new NativeMoe(library);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(4L * inputs.tokens() * shape.hidden(), 64);
            MemorySegment workspace = arena.allocate(moe.workspaceBytes(shape, inputs.tokens()), 64);
            moe.forward(shape, weights, inputs, out, workspace, 2);
            return out.toArray(ValueLayout.JAVA_FLOAT);
        }
    }
}
