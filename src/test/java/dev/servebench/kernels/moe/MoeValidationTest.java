package dev.servebench.kernels.moe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.nvfp4.E2m1;
import dev.servebench.kernels.nvfp4.E4m3;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/** Bad input fails in Java before any native call; the C functions also reject it without writing. */
class MoeValidationTest {

    private static final MoeShape SHAPE = MoeShape.SMALL;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG;
    private static final ValueLayout A = ValueLayout.ADDRESS;

    @Test
    void shapesAndConfigsNameWhatIsWrong() {
        assertThatThrownBy(() -> new MoeShape(24, 64, 16, 4)).hasMessageContaining("hidden = 24");
        assertThatThrownBy(() -> new MoeShape(256, 0, 16, 4)).hasMessageContaining("inter = 0");
        assertThatThrownBy(() -> new MoeShape(256, 64, 4, 5)).hasMessageContaining("topK = 5");
        assertThatThrownBy(() -> new RoutingConfig(16, 17, 1, 1, true, 1f)).hasMessageContaining("topK = 17");
        assertThatThrownBy(() -> new RoutingConfig(16, 4, 3, 1, true, 1f)).hasMessageContaining("nGroup = 3");
        assertThatThrownBy(() -> new RoutingConfig(16, 4, 1, 2, true, 1f)).hasMessageContaining("topkGroup = 2");
        assertThatThrownBy(() -> new RoutingConfig(16, 4, 4, 5, true, 1f)).hasMessageContaining("topkGroup = 5");
        assertThatThrownBy(() -> new RoutingConfig(16, 1, 16, 1, true, 1f)).hasMessageContaining("at least 2 per group");
        assertThatThrownBy(() -> new RoutingConfig(16, 9, 4, 2, true, 1f)).hasMessageContaining("exceeds the 8 experts");
        assertThatThrownBy(() -> new RoutingConfig(16, 4, 1, 1, true, Float.NaN)).hasMessageContaining("routedScalingFactor");
        assertThatThrownBy(() -> new RoutingConfig(5000, 4, 1, 1, true, 1f)).hasMessageContaining("experts = 5000");
        assertThat(MoeShape.GLM5_TP8.usefulFlops(64)).isEqualTo(6L * 6144 * 256 * 64 * 8);
        assertThat(MoeShape.GLM5_TP8.expertWeightBytes()).isEqualTo(3L * 6144 * 256 * 9 / 16 + 8);
    }

    @Test
    void routingRejectsBadInputInJavaForReferenceAndNative() {
        NativeMoe moe = new NativeMoe(KernelLibrary.load());
        RoutingConfig config = RoutingConfig.glm5Like(16, 4);
        float[] logits = new float[2 * 16];
        for (var route : new RouteCall[] {RoutingReference::route, moe::route}) {
            assertThatThrownBy(() -> route.call(new float[31], null, 2, config)).hasMessageContaining("logits hold 31");
            assertThatThrownBy(() -> route.call(logits, null, 0, config)).hasMessageContaining("tokens = 0");
            assertThatThrownBy(() -> route.call(null, null, 2, config)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> route.call(logits, new float[15], 2, config)).hasMessageContaining("bias holds 15");
            float[] infiniteBias = new float[16];
            infiniteBias[3] = Float.POSITIVE_INFINITY;
            assertThatThrownBy(() -> route.call(logits, infiniteBias, 2, config)).hasMessageContaining("bias[3]");
            float[] nan = logits.clone();
            nan[20] = Float.NaN;
            assertThatThrownBy(() -> route.call(nan, null, 2, config)).hasMessageContaining("logits[20] is NaN");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(I32, 8);
            MemorySegment weights = arena.allocate(ValueLayout.JAVA_FLOAT, 8);
            MemorySegment native32 = arena.allocate(ValueLayout.JAVA_FLOAT, 32);
            assertThatThrownBy(() -> moe.route(MemorySegment.ofArray(logits), null, 2, config, ids, weights))
                    .hasMessageContaining("logits is a heap segment");
            assertThatThrownBy(() -> moe.route(native32, null, 2, config, arena.allocate(I32, 7), weights))
                    .hasMessageContaining("ids holds 28 bytes");
            native32.setAtIndex(ValueLayout.JAVA_FLOAT, 9, Float.NaN);
            assertThatThrownBy(() -> moe.route(native32, null, 2, config, ids, weights))
                    .hasMessageContaining("logits[9] is NaN");
        }
    }

    @FunctionalInterface
    private interface RouteCall {
        Routing call(float[] logits, float[] bias, int tokens, RoutingConfig config);
    }

    @Test
    void forwardRejectsBadArgumentsBeforeCallingNative() {
        NativeMoe moe = new NativeMoe(KernelLibrary.load());
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(SHAPE, 1, arena);
            MoeInputs inputs = MoeInputs.random(SHAPE, 3, 2, arena, RoutingSkew.UNIFORM);
            MemorySegment out = arena.allocate(4L * 3 * SHAPE.hidden());
            MemorySegment workspace = arena.allocate(moe.workspaceBytes(SHAPE, 3));
            MoeShape other = new MoeShape(256, 64, 16, 2);
            assertThatThrownBy(() -> moe.forward(other, weights, inputs, out, workspace, 1))
                    .hasMessageContaining("weights are for");
            assertThatThrownBy(() -> moe.forward(SHAPE, weights, inputs, arena.allocate(100), workspace, 1))
                    .hasMessageContaining("out holds 100 bytes");
            assertThatThrownBy(() -> moe.forward(SHAPE, weights, inputs,
                    MemorySegment.ofArray(new float[3 * 256]), workspace, 1)).hasMessageContaining("out is a heap segment");
            assertThatThrownBy(() -> moe.forward(SHAPE, weights, inputs, out, null, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("workspace");
            assertThatThrownBy(() -> moe.forward(SHAPE, weights, inputs, out, arena.allocate(64), 1))
                    .hasMessageContaining("workspace holds 64 bytes");
            assertThatThrownBy(() -> moe.forward(SHAPE, weights, inputs, out, workspace, 0))
                    .hasMessageContaining("threads = 0");
            assertThatThrownBy(() -> moe.forward(SHAPE, null, inputs, out, workspace, 1))
                    .isInstanceOf(NullPointerException.class);
            inputs.topkIds().setAtIndex(I32, 5, 16);
            assertThatThrownBy(() -> moe.forward(SHAPE, weights, inputs, out, workspace, 1))
                    .hasMessageContaining("topkIds[5] = 16 (token 1, slot 1) is not an expert");
            inputs.topkIds().setAtIndex(I32, 5, -1);
            assertThatThrownBy(() -> MoeReference.forward(SHAPE, weights, inputs)).hasMessageContaining("topkIds[5] = -1");
            assertThatThrownBy(() -> moe.workspaceBytes(SHAPE, 0)).hasMessageContaining("tokens = 0");
        }
    }

    @Test
    void weightAndInputContainersCheckTheirSizes() {
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(SHAPE, 1, arena);
            assertThatThrownBy(() -> new MoeWeights(SHAPE, weights.w13Packed().asSlice(1), weights.w13Scales(),
                    weights.w13Global(), weights.w2Packed(), weights.w2Scales(), weights.w2Global()))
                    .hasMessageContaining("w13Packed holds");
            assertThatThrownBy(() -> MoeWeights.of(SHAPE, new byte[1], new byte[0], new float[0], new byte[0],
                    new byte[0], new float[0], arena)).hasMessageContaining("w13Packed holds 1 bytes");
            assertThatThrownBy(() -> weights.up(16)).hasMessageContaining("expert 16 out of range");
            Routing routing = new Routing(1, 4, new int[] {0, 1, 2, 3}, new float[4]);
            assertThatThrownBy(() -> MoeInputs.of(SHAPE, new short[255], routing, arena))
                    .hasMessageContaining("x holds 255 values");
            assertThatThrownBy(() -> MoeInputs.of(new MoeShape(256, 64, 16, 2), new short[256], routing, arena))
                    .hasMessageContaining("routing has topK 4");
            assertThatThrownBy(() -> new Routing(2, 4, new int[4], new float[4])).hasMessageContaining("expected tokens*topK = 8");
        }
    }

    @Test
    void upGateAndDownAreTheRightRowsDequantised() {
        try (Arena arena = Arena.ofConfined()) {
            MoeWeights weights = MoeWeights.random(SHAPE, 4, arena);
            int e = 3;
            int h = SHAPE.hidden();
            int i = SHAPE.inter();
            float[] up = weights.up(e);
            float[] gate = weights.gate(e);
            float[] down = weights.down(e);
            assertThat(up).hasSize(i * h);
            assertThat(down).hasSize(h * i);
            // element (row 1, column 3) of up is the high nibble of byte 1 of row e*2I+1
            long upRow = (long) e * 2 * i + 1;
            int code = (weights.w13Packed().get(ValueLayout.JAVA_BYTE, upRow * h / 2 + 1) & 0xFF) >>> 4;
            int scale = weights.w13Scales().get(ValueLayout.JAVA_BYTE, upRow * h / 16) & 0xFF;
            assertThat(up[h + 3]).isEqualTo(E2m1.decode(code)
                    * E4m3.decode(scale) * weights.w13Global(e));
            long gateRow = upRow + i;
            int gateCode = weights.w13Packed().get(ValueLayout.JAVA_BYTE, gateRow * h / 2) & 0xF;
            int gateScale = weights.w13Scales().get(ValueLayout.JAVA_BYTE, gateRow * h / 16) & 0xFF;
            assertThat(gate[h]).isEqualTo(E2m1.decode(gateCode)
                    * E4m3.decode(gateScale) * weights.w13Global(e));
            long downRow = (long) e * h + 7;
            int downCode = weights.w2Packed().get(ValueLayout.JAVA_BYTE, downRow * i / 2 + 2) & 0xF;
            int downScale = weights.w2Scales().get(ValueLayout.JAVA_BYTE, downRow * i / 16) & 0xFF;
            assertThat(down[7 * i + 4]).isEqualTo(E2m1.decode(downCode)
                    * E4m3.decode(downScale) * weights.w2Global(e));
            assertThat(MoeWeights.random(SHAPE, 4, arena).w2Packed().mismatch(weights.w2Packed()))
                    .as("same seed, same weights").isEqualTo(-1);
        }
    }

    @Test
    void theCFunctionsRejectBadArgumentsWithoutWriting() throws Throwable {
        for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
            KernelLibrary library = KernelLibrary.load(variant);
            MethodHandle workspaceBytes = library.handle("sb_moe_workspace_bytes",
                    FunctionDescriptor.of(I64, I64, I64, I64, I32, I32));
            assertThat((long) workspaceBytes.invokeExact(1L, 24L, 64L, 16, 4)).isEqualTo(-1L);
            assertThat((long) workspaceBytes.invokeExact(1L, 256L, 64L, 16, 17)).isEqualTo(-1L);
            MethodHandle forward = library.handle("sb_moe_w4a16", FunctionDescriptor.of(I32, A, I64, I64, I64, I32, I32,
                    A, A, A, A, A, A, A, A, A, A, I64, I32));
            MethodHandle route = library.handle("sb_moe_route", FunctionDescriptor.of(I32, A, A, I64, I32, I32, I32, I32,
                    I32, ValueLayout.JAVA_FLOAT, A, A));
            try (Arena arena = Arena.ofConfined()) {
                MoeWeights w = MoeWeights.random(SHAPE, 1, arena);
                MoeInputs in = MoeInputs.random(SHAPE, 2, 2, arena, RoutingSkew.UNIFORM);
                long wsBytes = (long) workspaceBytes.invokeExact(2L, 256L, 64L, 16, 4);
                MemorySegment ws = arena.allocate(wsBytes);
                MemorySegment out = arena.allocate(4L * 2 * 256);
                out.fill((byte) 0x55);
                in.topkIds().setAtIndex(I32, 7, 16);
                int status = (int) forward.invokeExact(in.x(), 2L, 256L, 64L, 16, 4, in.topkIds(), in.topkWeights(),
                        w.w13Packed(), w.w13Scales(), w.w13Global(), w.w2Packed(), w.w2Scales(), w.w2Global(), out, ws,
                        wsBytes, 1);
                assertThat(status).as("%s id out of range", variant).isEqualTo(1);
                in.topkIds().setAtIndex(I32, 7, 3);
                status = (int) forward.invokeExact(in.x(), 2L, 256L, 64L, 16, 4, in.topkIds(), in.topkWeights(),
                        w.w13Packed(), w.w13Scales(), w.w13Global(), w.w2Packed(), w.w2Scales(), w.w2Global(), out, ws,
                        wsBytes - 64, 1);
                assertThat(status).as("%s small workspace", variant).isEqualTo(1);
                status = (int) forward.invokeExact(in.x(), 2L, 256L, 64L, 16, 4, in.topkIds(), in.topkWeights(),
                        w.w13Packed(), w.w13Scales(), MemorySegment.NULL, w.w2Packed(), w.w2Scales(), w.w2Global(), out,
                        ws, wsBytes, 1);
                assertThat(status).as("%s null global scales", variant).isEqualTo(1);
                for (long b = 0; b < out.byteSize(); b++) {
                    assertThat(out.get(ValueLayout.JAVA_BYTE, b)).isEqualTo((byte) 0x55);
                }
                MemorySegment logits = arena.allocate(ValueLayout.JAVA_FLOAT, 16);
                logits.setAtIndex(ValueLayout.JAVA_FLOAT, 2, Float.NaN);
                MemorySegment ids = arena.allocate(I32, 4);
                ids.fill((byte) 0x55);
                status = (int) route.invokeExact(logits, MemorySegment.NULL, 1L, 16, 4, 1, 1, 1, 2.5f, ids,
                        arena.allocate(I32, 4));
                assertThat(status).as("%s NaN logit", variant).isEqualTo(1);
                status = (int) route.invokeExact(arena.allocate(ValueLayout.JAVA_FLOAT, 16), MemorySegment.NULL, 1L, 16,
                        4, 4, 5, 1, 2.5f, ids, arena.allocate(I32, 4));
                assertThat(status).as("%s topk_group > n_group", variant).isEqualTo(1);
                assertThat(ids.get(I32, 0)).isEqualTo(0x55555555);
            }
        }
    }
}
