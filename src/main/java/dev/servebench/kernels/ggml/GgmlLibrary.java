package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * llama.cpp's ggml, called directly through FFM from the {@code libjllama.so} that de.kherud:llama 4.2.0
 * ships (llama.cpp b4916, a portable AVX2 build with OpenMP that exports every {@code ggml_*} symbol).
 *
 * <p>The raw calls are package-private: ggml aborts the whole process on a bad argument
 * ({@code GGML_ASSERT}), so only {@link GgmlExperts} and {@link GgmlMoe}, which check everything in Java
 * first, may reach them. The library is loaded into the global arena and stays for the JVM's life.
 */
public final class GgmlLibrary {

    /** The only build whose struct layouts ({@link GgmlStructs}) these bindings are pinned to. */
    public static final int SUPPORTED_BUILD = 4916;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ConcurrentHashMap<Path, GgmlLibrary> LOADED = new ConcurrentHashMap<>();

    private final Path path;
    private final SymbolLookup symbols;
    private final int buildNumber;
    private final String commit;

    private final MethodHandle init = handle("ggml_init", FunctionDescriptor.of(ADDRESS, GgmlStructs.INIT_PARAMS));
    private final MethodHandle free = handle("ggml_free", FunctionDescriptor.ofVoid(ADDRESS));
    private final MethodHandle usedMem = handle("ggml_used_mem", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    private final MethodHandle tensorOverhead = handle("ggml_tensor_overhead", FunctionDescriptor.of(JAVA_LONG));
    private final MethodHandle graphOverheadCustom = handle("ggml_graph_overhead_custom",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_BOOLEAN));
    private final MethodHandle newTensor2d = handle("ggml_new_tensor_2d",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private final MethodHandle newTensor3d = handle("ggml_new_tensor_3d",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private final MethodHandle getData = handle("ggml_get_data", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private final MethodHandle nbytes = handle("ggml_nbytes", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    private final MethodHandle rowSize = handle("ggml_row_size", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG));
    private final MethodHandle mulMatId = handle("ggml_mul_mat_id",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle silu = handle("ggml_silu", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle mul = handle("ggml_mul", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle add = handle("ggml_add", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle cont = handle("ggml_cont", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle view2d = handle("ggml_view_2d",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private final MethodHandle newGraphCustom = handle("ggml_new_graph_custom",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_BOOLEAN));
    private final MethodHandle buildForwardExpand = handle("ggml_build_forward_expand",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    private final MethodHandle graphNodes = handle("ggml_graph_n_nodes", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private final MethodHandle graphPlan = handle("ggml_graph_plan",
            FunctionDescriptor.of(GgmlStructs.CPLAN, ADDRESS, JAVA_INT, ADDRESS));
    private final MethodHandle graphCompute = handle("ggml_graph_compute",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private final MethodHandle fp32ToFp16Row = handle("ggml_fp32_to_fp16_row",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG));
    private final MethodHandle quantizeChunk = handle("ggml_quantize_chunk",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    private final MethodHandle hasAvx2 = handle("ggml_cpu_has_avx2", FunctionDescriptor.of(JAVA_INT));
    private final MethodHandle hasAvx512 = handle("ggml_cpu_has_avx512", FunctionDescriptor.of(JAVA_INT));

    private GgmlLibrary(Path path) {
        // Assigned before super() (JDK 25 flexible constructor bodies) so that the handle field
        // initializers above, which run right after super(), can resolve symbols.
        this.path = path;
        this.symbols = SymbolLookup.libraryLookup(path, Arena.global());
        super();
        this.buildNumber = symbols.find("LLAMA_BUILD_NUMBER")
                .map(s -> s.reinterpret(4).get(JAVA_INT, 0))
                .orElseThrow(() -> new IllegalStateException(path + " exports no LLAMA_BUILD_NUMBER; not a llama.cpp build"));
        if (buildNumber != SUPPORTED_BUILD) {
            throw new IllegalStateException(path + " is llama.cpp b" + buildNumber + "; the ggml struct layouts here are "
                    + "pinned to b" + SUPPORTED_BUILD + " (de.kherud:llama 4.2.0)");
        }
        this.commit = symbols.find("LLAMA_COMMIT")
                .map(s -> s.reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0).reinterpret(64).getString(0))
                .orElse("unknown");
        try {
            // Fills the CPU backend's lookup tables; idempotent, and needed before the first graph runs.
            handle("ggml_cpu_init", FunctionDescriptor.ofVoid()).invokeExact();
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** The engine's copy of {@code libjllama.so} if it has one, else ours extracted under the same name. */
    public static GgmlLibrary load() {
        return load(JllamaFile.locate());
    }

    public static GgmlLibrary load(Path library) {
        Path absolute = library.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new IllegalStateException("llama.cpp library not found: " + absolute);
        }
        return LOADED.computeIfAbsent(absolute, GgmlLibrary::new);
    }

    public Path path() {
        return path;
    }

    /** {@code LLAMA_BUILD_NUMBER}, always {@value #SUPPORTED_BUILD} for a loaded library. */
    public int buildNumber() {
        return buildNumber;
    }

    /** {@code LLAMA_COMMIT}, the short git hash of the build. */
    public String commit() {
        return commit;
    }

    /** Whether ggml was compiled with AVX2 kernels (a compile-time fact of the build, not of this CPU). */
    public boolean hasAvx2() {
        return callInt(hasAvx2) != 0;
    }

    /** Whether ggml was compiled with AVX-512 kernels; 0 for the portable build even on AVX-512 CPUs. */
    public boolean hasAvx512() {
        return callInt(hasAvx512) != 0;
    }

    /** One line for benchmark metadata, e.g. {@code llama.cpp b4916 (c6af2161) ggml avx2=1 avx512=0}. */
    public String fingerprint() {
        return "llama.cpp b" + buildNumber + " (" + commit + ") ggml avx2=" + (hasAvx2() ? 1 : 0)
                + " avx512=" + (hasAvx512() ? 1 : 0);
    }

    // ---- raw ggml calls; callers have validated every argument ----

    MemorySegment init(long memSize, MemorySegment memBuffer) {
        return init(memSize, memBuffer, false);
    }

    /** {@code noAlloc}: tensors get no data in the context (a backend buffer provides it later). */
    MemorySegment init(long memSize, MemorySegment memBuffer, boolean noAlloc) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment params = arena.allocate(GgmlStructs.INIT_PARAMS);
            GgmlStructs.INIT_MEM_SIZE.set(params, 0L, memSize);
            GgmlStructs.INIT_MEM_BUFFER.set(params, 0L, memBuffer);
            GgmlStructs.INIT_NO_ALLOC.set(params, 0L, noAlloc);
            return (MemorySegment) init.invokeExact(params);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    void free(MemorySegment context) {
        try {
            free.invokeExact(context);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    long usedMem(MemorySegment context) {
        return callLong(usedMem, context);
    }

    long tensorOverhead() {
        try {
            return (long) tensorOverhead.invokeExact();
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    long graphOverhead(long size) {
        try {
            return (long) graphOverheadCustom.invokeExact(size, false);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    MemorySegment newTensor2d(MemorySegment context, int type, long ne0, long ne1) {
        try {
            return (MemorySegment) newTensor2d.invokeExact(context, type, ne0, ne1);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    MemorySegment newTensor3d(MemorySegment context, int type, long ne0, long ne1, long ne2) {
        try {
            return (MemorySegment) newTensor3d.invokeExact(context, type, ne0, ne1, ne2);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** The tensor's data, sized by {@code ggml_nbytes}. */
    MemorySegment data(MemorySegment tensor) {
        try {
            MemorySegment data = (MemorySegment) getData.invokeExact(tensor);
            return data.reinterpret(nbytes(tensor));
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    long nbytes(MemorySegment tensor) {
        return callLong(nbytes, tensor);
    }

    long rowSize(int type, long elements) {
        try {
            return (long) rowSize.invokeExact(type, elements);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    MemorySegment mulMatId(MemorySegment context, MemorySegment experts, MemorySegment input, MemorySegment ids) {
        try {
            return (MemorySegment) mulMatId.invokeExact(context, experts, input, ids);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    MemorySegment silu(MemorySegment context, MemorySegment a) {
        return unary(silu, context, a);
    }

    MemorySegment cont(MemorySegment context, MemorySegment a) {
        return unary(cont, context, a);
    }

    MemorySegment mul(MemorySegment context, MemorySegment a, MemorySegment b) {
        return binary(mul, context, a, b);
    }

    MemorySegment add(MemorySegment context, MemorySegment a, MemorySegment b) {
        return binary(add, context, a, b);
    }

    MemorySegment view2d(MemorySegment context, MemorySegment a, long ne0, long ne1, long nb1, long offset) {
        try {
            return (MemorySegment) view2d.invokeExact(context, a, ne0, ne1, nb1, offset);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    MemorySegment newGraph(MemorySegment context, long size) {
        try {
            return (MemorySegment) newGraphCustom.invokeExact(context, size, false);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    void buildForwardExpand(MemorySegment graph, MemorySegment tensor) {
        try {
            buildForwardExpand.invokeExact(graph, tensor);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    int graphNodes(MemorySegment graph) {
        try {
            return (int) graphNodes.invokeExact(graph);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** {@code ggml_graph_plan(graph, threads, NULL)}; the 48-byte plan is written into {@code allocator}. */
    MemorySegment graphPlan(SegmentAllocator allocator, MemorySegment graph, int threads) {
        try {
            return (MemorySegment) graphPlan.invokeExact(allocator, graph, threads, MemorySegment.NULL);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** Returns {@code enum ggml_status}: 0 success, 1 aborted, -1 failed, -2 allocation failed. */
    int graphCompute(MemorySegment graph, MemorySegment plan) {
        try {
            return (int) graphCompute.invokeExact(graph, plan);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    void fp32ToFp16Row(MemorySegment source, MemorySegment destination, long count) {
        try {
            fp32ToFp16Row.invokeExact(source, destination, count);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** Quantizes {@code rows × perRow} floats from the start of both buffers, with no importance matrix. */
    long quantizeRows(int type, MemorySegment source, MemorySegment destination, long rows, long perRow) {
        try {
            return (long) quantizeChunk.invokeExact(type, source, destination, 0L, rows, perRow, MemorySegment.NULL);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** A downcall for a symbol of this library, for the few callers with calls of their own. */
    MethodHandle handle(String name, FunctionDescriptor descriptor) {
        return downcall(symbols.find(name).orElseThrow(() -> new UnsupportedOperationException(
                path + " does not export " + name)), descriptor);
    }

    /** A downcall for a function pointer obtained from the library (e.g. a backend proc address). */
    static MethodHandle downcall(MemorySegment function, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(function, descriptor);
    }

    private static MemorySegment unary(MethodHandle op, MemorySegment context, MemorySegment a) {
        try {
            return (MemorySegment) op.invokeExact(context, a);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    private static MemorySegment binary(MethodHandle op, MemorySegment context, MemorySegment a, MemorySegment b) {
        try {
            return (MemorySegment) op.invokeExact(context, a, b);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    private static int callInt(MethodHandle handle) {
        try {
            return (int) handle.invokeExact();
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    private static long callLong(MethodHandle handle, MemorySegment argument) {
        try {
            return (long) handle.invokeExact(argument);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }
}
