package dev.servebench.kernels.allreduce;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The native allreduce's shared memory for {@code ranks} ranks and messages up to {@code maxBytes} per
 * rank (signal flags and staging, sized by {@code sb_allreduce_workspace_bytes}), initialised by
 * {@code sb_allreduce_init} for the library that will run on it. Its flags carry state from one
 * collective to the next, so one workspace serves one collective at a time.
 */
public final class AllreduceWorkspace implements AutoCloseable {

    private final NativeAllreduce owner;
    private final int ranks;
    private final long maxBytes;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;
    /** inputs then outputs pointer tables passed to sb_allreduce_bf16_run. */
    private final MemorySegment pointers;
    private final AtomicBoolean inUse = new AtomicBoolean();

    public AllreduceWorkspace(NativeAllreduce owner, int ranks, long maxBytes) {
        if (owner == null) {
            throw new NullPointerException("owner is null; expected the NativeAllreduce that will use the workspace");
        }
        this.owner = owner;
        this.ranks = AllreduceDispatch.requireRanks(ranks);
        this.maxBytes = AllreduceBuffers.requireMaxBytes(maxBytes);
        long bytes = owner.workspaceBytes(ranks, maxBytes);
        this.memory = arena.allocate(bytes, 64);
        this.pointers = arena.allocate(ValueLayout.ADDRESS, 2L * ranks);
        try {
            owner.init(memory, ranks, maxBytes);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    public int ranks() {
        return ranks;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public long byteSize() {
        return memory.byteSize();
    }

    NativeAllreduce owner() {
        return owner;
    }

    MemorySegment memory() {
        return memory;
    }

    /** Claims the workspace and its pointer tables for one call; fails fast on concurrent use. */
    MemorySegment acquirePointers() {
        if (!arena.scope().isAlive()) {
            throw new IllegalStateException("the allreduce workspace is closed");
        }
        if (!inUse.compareAndSet(false, true)) {
            throw new IllegalStateException("the allreduce workspace is already running a collective; "
                    + "expected one collective at a time per workspace");
        }
        return pointers;
    }

    void release() {
        inUse.set(false);
    }

    void requireOpen() {
        if (!arena.scope().isAlive()) {
            throw new IllegalStateException("the allreduce workspace is closed");
        }
    }

    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "AllreduceWorkspace[ranks=" + ranks + ", maxBytes=" + maxBytes + ", " + memory.byteSize()
                + " bytes, " + owner.library().path().getFileName() + "]";
    }

    /** For messages bound to a kernel library: the library this workspace was initialised by. */
    KernelLibrary library() {
        return owner.library();
    }
}
