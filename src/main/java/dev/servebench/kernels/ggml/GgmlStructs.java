package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * The two structs that cross the FFM boundary by value, as declared in llama.cpp b4916.
 *
 * <p>Both declarations are unchanged from the threadpool rework (autumn 2024) through b4916 and later
 * releases, but they are ABI, not API: {@link GgmlLibrary} refuses any other build, and
 * {@link GgmlMoe} checks the fields {@code ggml_graph_plan} returns against what it asked for.
 */
final class GgmlStructs {

    /**
     * {@code ggml.h}: {@code struct ggml_init_params { size_t mem_size; void * mem_buffer; bool no_alloc; }},
     * 24 bytes with the tail padding (passed in memory by the SysV ABI, being larger than 16 bytes).
     */
    static final StructLayout INIT_PARAMS = MemoryLayout.structLayout(
            JAVA_LONG.withName("mem_size"),
            ADDRESS.withName("mem_buffer"),
            JAVA_BOOLEAN.withName("no_alloc"),
            MemoryLayout.paddingLayout(7));

    /**
     * {@code ggml-cpu.h}: {@code struct ggml_cplan { size_t work_size; uint8_t * work_data; int n_threads;
     * struct ggml_threadpool * threadpool; ggml_abort_callback abort_callback; void * abort_callback_data; }},
     * 48 bytes; returned by value from {@code ggml_graph_plan}.
     */
    static final StructLayout CPLAN = MemoryLayout.structLayout(
            JAVA_LONG.withName("work_size"),
            ADDRESS.withName("work_data"),
            JAVA_INT.withName("n_threads"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("threadpool"),
            ADDRESS.withName("abort_callback"),
            ADDRESS.withName("abort_callback_data"));

    static final VarHandle INIT_MEM_SIZE = field(INIT_PARAMS, "mem_size");
    static final VarHandle INIT_MEM_BUFFER = field(INIT_PARAMS, "mem_buffer");
    static final VarHandle INIT_NO_ALLOC = field(INIT_PARAMS, "no_alloc");
    static final VarHandle CPLAN_WORK_SIZE = field(CPLAN, "work_size");
    static final VarHandle CPLAN_WORK_DATA = field(CPLAN, "work_data");
    static final VarHandle CPLAN_N_THREADS = field(CPLAN, "n_threads");
    static final VarHandle CPLAN_THREADPOOL = field(CPLAN, "threadpool");
    static final VarHandle CPLAN_ABORT_CALLBACK = field(CPLAN, "abort_callback");

    /** ggml type ids ({@code enum ggml_type}) that are not weight types. */
    static final int TYPE_I32 = 26;
    /** {@code GGML_MAX_N_THREADS} in b4916. */
    static final int MAX_THREADS = 512;

    static {
        // size_t is modelled as JAVA_LONG above; make a 32-bit or exotic platform fail loudly instead.
        long sizeT = Linker.nativeLinker().canonicalLayouts().get("size_t").byteSize();
        if (sizeT != 8 || ADDRESS.byteSize() != 8) {
            throw new ExceptionInInitializerError("ggml bindings need a 64-bit platform; size_t is " + sizeT + " bytes");
        }
        if (INIT_PARAMS.byteSize() != 24 || CPLAN.byteSize() != 48) {
            throw new ExceptionInInitializerError("unexpected struct sizes " + INIT_PARAMS.byteSize() + "/" + CPLAN.byteSize());
        }
    }

    private GgmlStructs() {
    }

    /**
     * Reads {@code work_size} from a plan {@code ggml_graph_plan(graph, threads, NULL)} returned, after
     * checking the fields we know the values of. A layout mismatch would show up here as a wrong thread
     * count or a non-NULL pointer instead of as memory corruption inside {@code ggml_graph_compute}.
     */
    static long verifiedWorkSize(MemorySegment plan, int threads) {
        int planned = (int) CPLAN_N_THREADS.get(plan, 0L);
        MemorySegment threadpool = (MemorySegment) CPLAN_THREADPOOL.get(plan, 0L);
        MemorySegment abort = (MemorySegment) CPLAN_ABORT_CALLBACK.get(plan, 0L);
        long workSize = (long) CPLAN_WORK_SIZE.get(plan, 0L);
        if (planned != threads || threadpool.address() != 0 || abort.address() != 0 || workSize < 0
                || workSize > (1L << 40)) {
            throw new IllegalStateException("ggml_graph_plan returned an unexpected plan (n_threads " + planned
                    + " for " + threads + " requested, threadpool " + threadpool.address() + ", abort_callback "
                    + abort.address() + ", work_size " + workSize + "); is the struct ggml_cplan layout still b4916's?");
        }
        return workSize;
    }

    private static VarHandle field(StructLayout layout, String name) {
        return layout.varHandle(PathElement.groupElement(name));
    }
}
