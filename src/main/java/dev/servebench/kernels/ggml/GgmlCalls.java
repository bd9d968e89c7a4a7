package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;

/**
 * Typed downcalls to the ggml functions the MoE baseline needs, with b4916's signatures (ggml.h,
 * ggml-cpu.h). They check nothing: a bad argument ends in {@code GGML_ASSERT}, which aborts the JVM, so
 * callers validate everything first.
 *
 * <p>Its restricted FFM calls are its purpose: every servebench JVM runs with native access enabled (the jar's
 * {@code Enable-Native-Access} manifest entry, {@code --enable-native-access} in the test JVMs).
 */
@SuppressWarnings("restricted")
final class GgmlCalls {

    private final GgmlLibrary library;
    private final MethodHandle init = library.handle("ggml_init", FunctionDescriptor.of(ADDRESS, GgmlStructs.INIT_PARAMS));
    private final MethodHandle free = library.handle("ggml_free", FunctionDescriptor.ofVoid(ADDRESS));
    private final MethodHandle tensorOverhead = library.handle("ggml_tensor_overhead", FunctionDescriptor.of(JAVA_LONG));
    private final MethodHandle graphOverheadCustom = library.handle("ggml_graph_overhead_custom",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_BOOLEAN));
    private final MethodHandle newTensor2d = library.handle("ggml_new_tensor_2d",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private final MethodHandle newTensor3d = library.handle("ggml_new_tensor_3d",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private final MethodHandle getData = library.handle("ggml_get_data", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private final MethodHandle nbytes = library.handle("ggml_nbytes", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    private final MethodHandle rowSize = library.handle("ggml_row_size", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG));
    private final MethodHandle mulMatId = library.handle("ggml_mul_mat_id",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle silu = library.handle("ggml_silu", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle mul = library.handle("ggml_mul", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle add = library.handle("ggml_add", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle cont = library.handle("ggml_cont", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private final MethodHandle view2d = library.handle("ggml_view_2d",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private final MethodHandle newGraphCustom = library.handle("ggml_new_graph_custom",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_BOOLEAN));
    private final MethodHandle buildForwardExpand = library.handle("ggml_build_forward_expand",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    private final MethodHandle graphPlan = library.handle("ggml_graph_plan",
            FunctionDescriptor.of(GgmlStructs.CPLAN, ADDRESS, JAVA_INT, ADDRESS));
    private final MethodHandle graphCompute = library.handle("ggml_graph_compute",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private final MethodHandle fp32ToFp16Row = library.handle("ggml_fp32_to_fp16_row",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG));
    private final MethodHandle quantizeChunk = library.handle("ggml_quantize_chunk",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));

    GgmlCalls(GgmlLibrary library) {
        // Assigned before super() (JDK 25 flexible constructor bodies): the field initializers above run
        // right after super() and resolve their symbols through it.
        this.library = library;
        super();
    }

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

    private static long callLong(MethodHandle handle, MemorySegment argument) {
        try {
            return (long) handle.invokeExact(argument);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }
}
