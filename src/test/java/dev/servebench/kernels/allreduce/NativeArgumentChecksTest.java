package dev.servebench.kernels.allreduce;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The C library's own checks, reached through raw downcalls (the Java bindings never let such calls
 * through): SB_ERR_ARGUMENT (1) with outputs untouched, or -1 from the size query.
 */
class NativeArgumentChecksTest {

    private static final int RANKS = 2;
    private static final long COUNT = 16;
    private static final long MAX_BYTES = 2 * COUNT;
    private static final int ONE_SHOT = 1;

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void workspaceQueriesAndInitRejectWhatTheyCannotHold(KernelLibrary.Variant variant) throws Throwable {
        KernelLibrary library = KernelLibrary.load(variant);
        MethodHandle bytes = library.handle("sb_allreduce_workspace_bytes", NativeAllreduce.WORKSPACE_BYTES);
        MethodHandle init = library.handle("sb_allreduce_init", NativeAllreduce.INIT);
        assertThat((long) bytes.invokeExact(1, MAX_BYTES)).isEqualTo(-1);
        assertThat((long) bytes.invokeExact(9, MAX_BYTES)).isEqualTo(-1);
        assertThat((long) bytes.invokeExact(RANKS, -1L)).isEqualTo(-1);
        long needed = (long) bytes.invokeExact(RANKS, MAX_BYTES);
        assertThat(needed).isPositive();
        long mib = 1 << 20;
        long fifo = 8 * 65536 * 4; // ring FIFO: 8 slots of a 65536-element piece in fp32, whatever the message size
        assertThat((long) bytes.invokeExact(2, mib) - (long) bytes.invokeExact(2, 0L))
                .as("per rank: bf16 staging of max_bytes + ring FIFO").isEqualTo(2 * (mib + fifo));
        assertThat((long) bytes.invokeExact(8, 64 * mib) - (long) bytes.invokeExact(8, 0L))
                .isEqualTo(8 * (64 * mib + fifo));
        assertThat((long) bytes.invokeExact(3, 1024L) - (long) bytes.invokeExact(3, 0L))
                .as("slots no longer than a whole message").isEqualTo(3 * (1024 + 8 * 512 * 4));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(needed + 64, 64);
            memory.fill((byte) 0x77);
            assertThat((int) init.invokeExact(MemorySegment.NULL, needed, RANKS, MAX_BYTES)).isEqualTo(1);
            assertThat((int) init.invokeExact(memory, needed - 1, RANKS, MAX_BYTES)).isEqualTo(1);
            assertThat((int) init.invokeExact(memory.asSlice(8), needed, RANKS, MAX_BYTES)).as("64-byte alignment")
                    .isEqualTo(1);
            assertThat((int) init.invokeExact(memory, needed, 1, MAX_BYTES)).isEqualTo(1);
            assertThat(memory.toArray(ValueLayout.JAVA_BYTE)).as("nothing written").containsOnly((byte) 0x77);
            assertThat((int) init.invokeExact(memory, needed, RANKS, MAX_BYTES)).isEqualTo(0);
        }
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void runAndRankRejectBadCallsWithoutWriting(KernelLibrary.Variant variant) throws Throwable {
        KernelLibrary library = KernelLibrary.load(variant);
        NativeAllreduce allreduce = new NativeAllreduce(library);
        MethodHandle run = library.handle("sb_allreduce_bf16_run", NativeAllreduce.RUN);
        MethodHandle rank = library.handle("sb_allreduce_bf16_rank", NativeAllreduce.RANK);
        try (Arena arena = Arena.ofConfined(); AllreduceWorkspace workspace = allreduce.workspace(RANKS, MAX_BYTES)) {
            MemorySegment ws = workspace.memory();
            MemorySegment[] in = AllreduceFixtures.zeroed(arena, RANKS, (int) COUNT);
            MemorySegment[] out = AllreduceFixtures.zeroed(arena, RANKS, (int) COUNT);
            for (MemorySegment o : out) {
                o.fill((byte) 0x5A);
            }
            MemorySegment inputs = table(arena, in[0], in[1]);
            MemorySegment outputs = table(arena, out[0], out[1]);
            MemorySegment uninitialised = arena.allocate(workspace.byteSize(), 64);

            assertThat((int) run.invokeExact(MemorySegment.NULL, RANKS, ONE_SHOT, inputs, outputs, COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(uninitialised, RANKS, ONE_SHOT, inputs, outputs, COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, 3, ONE_SHOT, inputs, outputs, COUNT, 1)).as("ranks != workspace's")
                    .isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, 4, inputs, outputs, COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, -1, inputs, outputs, COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, outputs, 12L, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, outputs, 2 * COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, outputs, -8L, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, outputs, COUNT, 0)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, MemorySegment.NULL, outputs, COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, MemorySegment.NULL, COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, table(arena, in[0], MemorySegment.NULL), outputs,
                    COUNT, 1)).isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, table(arena, in[0], in[1].asSlice(1)), outputs,
                    COUNT, 1)).as("odd address").isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, table(arena, out[0], out[0].asSlice(2)),
                    COUNT, 1)).as("outputs overlap").isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, table(arena, in[1], out[1]), COUNT, 1))
                    .as("output is a peer's input").isEqualTo(1);
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, table(arena, in[0].asSlice(2), out[1]),
                    COUNT - 8, 1)).as("partly in place").isEqualTo(1);

            assertThat((int) rank.invokeExact(ws, 2, RANKS, ONE_SHOT, inputs, out[0], COUNT)).isEqualTo(1);
            assertThat((int) rank.invokeExact(ws, -1, RANKS, ONE_SHOT, inputs, out[0], COUNT)).isEqualTo(1);
            assertThat((int) rank.invokeExact(ws, 0, RANKS, ONE_SHOT, inputs, in[1], COUNT)).isEqualTo(1);
            assertThat((int) rank.invokeExact(ws, 0, RANKS, ONE_SHOT, inputs, MemorySegment.NULL, COUNT)).isEqualTo(1);
            assertThat((int) rank.invokeExact(uninitialised, 0, RANKS, ONE_SHOT, inputs, out[0], COUNT)).isEqualTo(1);

            for (MemorySegment o : out) {
                assertThat(o.toArray(ValueLayout.JAVA_BYTE)).as("outputs untouched").containsOnly((byte) 0x5A);
            }
            assertThat((int) run.invokeExact(ws, RANKS, ONE_SHOT, inputs, outputs, COUNT, 1)).as("the valid call")
                    .isEqualTo(0);
            assertThat(out[0].toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0);
        }
    }

    private static MemorySegment table(Arena arena, MemorySegment first, MemorySegment second) {
        MemorySegment table = arena.allocate(ADDRESS, 2);
        table.setAtIndex(ADDRESS, 0, first);
        table.setAtIndex(ADDRESS, 1, second);
        return table;
    }
}
