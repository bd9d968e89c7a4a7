package dev.servebench.kernels.allreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Bad input to the Java entry points fails in Java, naming the argument, and leaves outputs alone. */
class AllreduceArgumentsTest {

    private static final int RANKS = 2;
    private static final int COUNT = 16;

    private final NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load());

    private static MemorySegment[] buffers(Arena arena) {
        return AllreduceFixtures.zeroed(arena, RANKS, COUNT);
    }

    @Test
    void nativeRunRejectsBadBuffersBeforeCallingTheLibrary() {
        try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(RANKS, 2 * COUNT)) {
            MemorySegment[] in = buffers(arena);
            MemorySegment[] out = buffers(arena);
            out[0].fill((byte) 0x5A);
            out[1].fill((byte) 0x5A);
            AllreduceAlgorithm oneShot = AllreduceAlgorithm.ONE_SHOT;
            assertThatThrownBy(() -> allreduce.run(null, oneShot, in, out, COUNT, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("workspace is null");
            assertThatThrownBy(() -> allreduce.run(workspace, null, in, out, COUNT, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("algorithm is null");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, null, out, COUNT, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("inputs is null");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, new MemorySegment[] {in[0]}, out, COUNT, 1))
                    .hasMessageContaining("inputs has 1 segments; expected one per rank (2)");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, new MemorySegment[] {in[0], null}, out, COUNT, 1))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("inputs[1] is null");
            MemorySegment[] heap = {in[0], MemorySegment.ofArray(new short[COUNT])};
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, heap, out, COUNT, 1))
                    .hasMessageContaining("inputs[1] is a heap segment");
            MemorySegment[] shortOut = {out[0], out[1].asSlice(0, 2 * COUNT - 2)};
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, shortOut, COUNT, 1))
                    .hasMessageContaining("outputs[1] holds 30 bytes; expected at least 32");
            MemorySegment[] odd = {in[0], arena.allocate(2 * COUNT + 2, 64).asSlice(1, 2 * COUNT)};
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, odd, out, COUNT, 1))
                    .hasMessageContaining("inputs[1] starts at an odd address");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, out, 12, 1))
                    .hasMessageContaining("count = 12 bf16 elements is 24 bytes; expected a multiple of 16 bytes");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, out, -8, 1))
                    .hasMessageContaining("count = -8");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, out, 2 * COUNT, 1))
                    .hasMessageContaining("more than the maxBytes = 32");
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, out, COUNT, 0))
                    .hasMessageContaining("repeats = 0; expected at least 1");
            MemorySegment[] sharedOut = {out[0], out[0]};
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, sharedOut, COUNT, 1))
                    .hasMessageContaining("outputs[1] overlaps outputs[0]");
            MemorySegment[] peerInput = {in[1], out[1]};
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, peerInput, COUNT, 1))
                    .hasMessageContaining("the output of rank 0 overlaps inputs[1]");
            MemorySegment[] shifted = {in[0].asSlice(2), out[1]};
            assertThatThrownBy(() -> allreduce.run(workspace, oneShot, in, shifted, 8, 1))
                    .as("partly in place").hasMessageContaining("the output of rank 0 overlaps inputs[0]");
            assertThat(out[0].toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0x5A);
            assertThat(out[1].toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0x5A);
        }
    }

    @Test
    void workspacesBelongToOneLibraryOneCollectiveAndTheirOpenLife() {
        NativeAllreduce scalar = new NativeAllreduce(KernelLibrary.load(KernelLibrary.Variant.SCALAR));
        try (Arena arena = Arena.ofConfined(); AllreduceWorkspace other = scalar.workspace(RANKS, 2 * COUNT)) {
            MemorySegment[] in = buffers(arena);
            MemorySegment[] out = buffers(arena);
            assertThatThrownBy(() -> allreduce.run(other, AllreduceAlgorithm.RING, in, out, COUNT, 1))
                    .hasMessageContaining("workspace was initialised by").hasMessageContaining("scalar");
            AllreduceWorkspace closed = allreduce.workspace(RANKS, 2 * COUNT);
            closed.close();
            assertThatThrownBy(() -> allreduce.run(closed, AllreduceAlgorithm.RING, in, out, COUNT, 1))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("workspace is closed");
            try (AllreduceWorkspace busy = allreduce.workspace(RANKS, 2 * COUNT)) {
                busy.acquirePointers();
                assertThatThrownBy(() -> allreduce.run(busy, AllreduceAlgorithm.RING, in, out, COUNT, 1))
                        .hasMessageContaining("already running a collective");
                busy.release();
                allreduce.run(busy, AllreduceAlgorithm.RING, in, out, COUNT, 1);
            }
        }
        assertThatThrownBy(() -> allreduce.workspace(9, 16)).hasMessageContaining("ranks = 9; expected 2..8");
        assertThatThrownBy(() -> allreduce.workspace(2, -1)).hasMessageContaining("maxBytes = -1");
        assertThatThrownBy(() -> new AllreduceWorkspace(null, 2, 16)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("owner is null");
    }

    @Test
    void runRankChecksItsOwnRankAndOutput() {
        try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(RANKS, 2 * COUNT)) {
            MemorySegment[] in = buffers(arena);
            MemorySegment out = arena.allocate(2 * COUNT);
            assertThatThrownBy(() -> allreduce.runRank(workspace, 2, AllreduceAlgorithm.ONE_SHOT, in, out, COUNT))
                    .hasMessageContaining("rank = 2; expected 0..1");
            assertThatThrownBy(() -> allreduce.runRank(workspace, 0, AllreduceAlgorithm.ONE_SHOT, in, in[1], COUNT))
                    .hasMessageContaining("the output of rank 0 overlaps inputs[1]");
            assertThatThrownBy(() -> allreduce.runRank(workspace, 0, AllreduceAlgorithm.ONE_SHOT, in, null, COUNT))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("output is null");
            assertThatThrownBy(() -> allreduce.runRank(workspace, 0, AllreduceAlgorithm.ONE_SHOT,
                    new MemorySegment[] {in[0]}, out, COUNT)).hasMessageContaining("inputs has 1 segments");
        }
    }

    @Test
    void javaBackendRejectsTheSameMistakes() {
        try (JavaAllreduce java = new JavaAllreduce(RANKS, 2 * COUNT)) {
            MemorySegment[] in = {MemorySegment.ofArray(new short[COUNT]), MemorySegment.ofArray(new short[COUNT])};
            MemorySegment[] out = {MemorySegment.ofArray(new short[COUNT]), MemorySegment.ofArray(new short[COUNT])};
            assertThatThrownBy(() -> java.run(in, new MemorySegment[] {out[0], out[0]}, COUNT,
                    AllreduceAlgorithm.TWO_SHOT, 1)).hasMessageContaining("outputs[1] overlaps outputs[0]");
            assertThatThrownBy(() -> java.run(in, new MemorySegment[] {in[1], out[1]}, COUNT,
                    AllreduceAlgorithm.TWO_SHOT, 1)).hasMessageContaining("the output of rank 0 overlaps inputs[1]");
            assertThatThrownBy(() -> java.run(in, out, 4, AllreduceAlgorithm.TWO_SHOT, 1))
                    .hasMessageContaining("count = 4 bf16 elements is 8 bytes");
            assertThatThrownBy(() -> java.run(in, out, COUNT, null, 1)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("algorithm is null");
            assertThatThrownBy(() -> java.run(in, out, COUNT, AllreduceAlgorithm.RING, 0))
                    .hasMessageContaining("repeats = 0");
            java.run(in, out, COUNT, AllreduceAlgorithm.RING, 1); // still usable after rejected calls
        }
        assertThatThrownBy(() -> new JavaAllreduce(1, 16)).hasMessageContaining("ranks = 1; expected 2..8");
    }
}
