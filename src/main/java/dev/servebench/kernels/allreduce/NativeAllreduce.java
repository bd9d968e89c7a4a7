package dev.servebench.kernels.allreduce;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Bindings of the allreduce section of {@code servebench_kernels.h}. Every argument is checked here
 * first, so bad input fails with a Java exception naming it and never reaches the library; the
 * library's own checks are the second line.
 */
public final class NativeAllreduce {

    static final FunctionDescriptor CHOOSE = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor WORKSPACE_BYTES = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG);
    static final FunctionDescriptor INIT = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG);
    static final FunctionDescriptor RANK = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
            ADDRESS, ADDRESS, JAVA_LONG);
    static final FunctionDescriptor RUN = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS,
            ADDRESS, JAVA_LONG, JAVA_INT);

    private final KernelLibrary library;
    private final MethodHandle choose;
    private final MethodHandle workspaceBytes;
    private final MethodHandle init;
    private final MethodHandle rankPart;
    private final MethodHandle run;

    public NativeAllreduce(KernelLibrary library) {
        if (library == null) {
            throw new NullPointerException("library is null; expected a loaded KernelLibrary");
        }
        this.library = library;
        this.choose = library.handle("sb_allreduce_choose", CHOOSE);
        this.workspaceBytes = library.handle("sb_allreduce_workspace_bytes", WORKSPACE_BYTES);
        this.init = library.handle("sb_allreduce_init", INIT);
        this.rankPart = library.handle("sb_allreduce_bf16_rank", RANK);
        this.run = library.handle("sb_allreduce_bf16_run", RUN);
    }

    public KernelLibrary library() {
        return library;
    }

    /** The library's {@code sb_allreduce_choose}: what AUTO runs (see {@link AllreduceDispatch#choose}). */
    public AllreduceAlgorithm choose(int ranks, long bytes, long customMaxBytes) {
        AllreduceDispatch.choose(ranks, bytes, customMaxBytes); // same argument checks, same messages
        try {
            int code = (int) choose.invokeExact(ranks, bytes, customMaxBytes);
            return AllreduceAlgorithm.fromCode(code);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    public long workspaceBytes(int ranks, long maxBytes) {
        AllreduceDispatch.requireRanks(ranks);
        AllreduceBuffers.requireMaxBytes(maxBytes);
        try {
            long bytes = (long) workspaceBytes.invokeExact(ranks, maxBytes);
            if (bytes < 0) {
                throw new IllegalStateException("sb_allreduce_workspace_bytes(" + ranks + ", " + maxBytes
                        + ") returned " + bytes);
            }
            return bytes;
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** A workspace for this library: {@code new AllreduceWorkspace(this, ranks, maxBytes)}. */
    public AllreduceWorkspace workspace(int ranks, long maxBytes) {
        return new AllreduceWorkspace(this, ranks, maxBytes);
    }

    void init(MemorySegment memory, int ranks, long maxBytes) {
        try {
            KernelLibrary.check((int) init.invokeExact(memory, memory.byteSize(), ranks, maxBytes), "sb_allreduce_init");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /**
     * {@code repeats} collectives of {@code count} bf16 elements on {@code workspace.ranks()} OpenMP
     * threads of the library; in place where {@code outputs[r]} is {@code inputs[r]}.
     */
    public void run(AllreduceWorkspace workspace, AllreduceAlgorithm algorithm, MemorySegment[] inputs,
            MemorySegment[] outputs, long count, int repeats) {
        requireWorkspace(workspace);
        int ranks = workspace.ranks();
        requireAlgorithm(algorithm);
        AllreduceBuffers.requireCount(count, workspace.maxBytes());
        AllreduceBuffers.requireBuffers(ranks, inputs, outputs, count, true);
        AllreduceBuffers.requireRepeats(repeats);
        MemorySegment pointers = workspace.acquirePointers();
        try {
            MemorySegment inputTable = pointers.asSlice(0, ADDRESS.byteSize() * ranks);
            MemorySegment outputTable = pointers.asSlice(ADDRESS.byteSize() * ranks, ADDRESS.byteSize() * ranks);
            for (int r = 0; r < ranks; r++) {
                inputTable.setAtIndex(ADDRESS, r, inputs[r]);
                outputTable.setAtIndex(ADDRESS, r, outputs[r]);
            }
            int status = (int) run.invokeExact(workspace.memory(), ranks, algorithm.code(), inputTable, outputTable,
                    count, repeats);
            if (status == 3) {
                throw new IllegalStateException("sb_allreduce_bf16_run: OpenMP gave the parallel region fewer than "
                        + ranks + " threads (OMP_THREAD_LIMIT, OMP_DYNAMIC or a call from inside a parallel region?)");
            }
            KernelLibrary.check(status, "sb_allreduce_bf16_run");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        } finally {
            workspace.release();
        }
    }

    /**
     * One rank's part of a collective ({@code sb_allreduce_bf16_rank}); every rank's thread must call it
     * with the same arguments except {@code rank} and {@code output}. For callers that run their own rank
     * threads; {@link #run} is the benchmark entry point.
     */
    public void runRank(AllreduceWorkspace workspace, int rank, AllreduceAlgorithm algorithm, MemorySegment[] inputs,
            MemorySegment output, long count) {
        requireWorkspace(workspace);
        int ranks = workspace.ranks();
        if (rank < 0 || rank >= ranks) {
            throw new IllegalArgumentException("rank = " + rank + "; expected 0.." + (ranks - 1));
        }
        requireAlgorithm(algorithm);
        AllreduceBuffers.requireCount(count, workspace.maxBytes());
        if (inputs != null && inputs.length != ranks) {
            throw new IllegalArgumentException("inputs has " + inputs.length + " segments; expected one per rank ("
                    + ranks + ")");
        }
        AllreduceBuffers.requireRankBuffers(rank, inputs, output, count);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment inputTable = arena.allocate(ADDRESS, ranks);
            for (int p = 0; p < ranks; p++) {
                inputTable.setAtIndex(ADDRESS, p, inputs[p]);
            }
            KernelLibrary.check((int) rankPart.invokeExact(workspace.memory(), rank, ranks, algorithm.code(), inputTable,
                    output, count), "sb_allreduce_bf16_rank");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    private void requireWorkspace(AllreduceWorkspace workspace) {
        if (workspace == null) {
            throw new NullPointerException("workspace is null; expected an AllreduceWorkspace of this library");
        }
        workspace.requireOpen();
        if (workspace.library() != library) {
            throw new IllegalArgumentException("workspace was initialised by " + workspace.library().path()
                    + "; expected one of " + library.path());
        }
    }

    private static void requireAlgorithm(AllreduceAlgorithm algorithm) {
        if (algorithm == null) {
            throw new NullPointerException("algorithm is null; expected one of AUTO, ONE_SHOT, TWO_SHOT, RING");
        }
    }
}
