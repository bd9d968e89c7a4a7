package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The CPU backend's "extra" buffer type {@code CPU_AARCH64} of b4916. Despite the name it serves x86 too:
 * a Q4_0 tensor written into it is repacked into blocks of 8 interleaved rows ({@code block_q4_0x8}) when
 * the build has AVX2, and {@code mul_mat}/{@code mul_mat_id} on it run that layout's kernels. llama.cpp's
 * model loader places Q4_0 weights there by default, so this is what the engine runs for Q4_0 experts.
 *
 * <p>Found the way llama.cpp finds it: {@code ggml_backend_cpu_reg()}, device 0, proc address
 * {@code ggml_backend_dev_get_extra_bufts}, then the NULL-terminated list by name.
 *
 * <p>Its restricted FFM calls are its purpose: every servebench JVM runs with native access enabled (the jar's
 * {@code Enable-Native-Access} manifest entry, {@code --enable-native-access} in the test JVMs).
 */
@SuppressWarnings("restricted")
final class CpuRepackBuffer {

    static final String NAME = "CPU_AARCH64";
    /** {@code GGML_TYPE_Q8_0}, the format the repacked kernels quantize activations to. */
    private static final int Q8_0 = 8;

    private final MethodHandle allocTensors;
    private final MethodHandle tensorSet;
    private final MethodHandle bufferFree;
    private final MemorySegment bufferType;

    CpuRepackBuffer(GgmlLibrary library) {
        this.allocTensors = library.handle("ggml_backend_alloc_ctx_tensors_from_buft",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        this.tensorSet = library.handle("ggml_backend_tensor_set",
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));
        this.bufferFree = library.handle("ggml_backend_buffer_free", FunctionDescriptor.ofVoid(ADDRESS));
        this.bufferType = find(library);
    }

    /** Allocates one buffer for every tensor of a {@code no_alloc} context; returns the buffer. */
    MemorySegment allocate(MemorySegment context) {
        try {
            MemorySegment buffer = (MemorySegment) allocTensors.invokeExact(context, bufferType);
            if (buffer.address() == 0) {
                throw new OutOfMemoryError("ggml_backend_alloc_ctx_tensors_from_buft(" + NAME + ") returned NULL");
            }
            return buffer;
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** Writes a whole tensor in plain layout; the buffer repacks it (b4916 accepts only whole tensors). */
    void setWhole(MemorySegment tensor, MemorySegment plain) {
        try {
            tensorSet.invokeExact(tensor, plain, 0L, plain.byteSize());
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    void free(MemorySegment buffer) {
        try {
            bufferFree.invokeExact(buffer);
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /**
     * Work bytes b4916's repacked {@code mul_mat_id} asserts it has ({@code ggml-cpu-aarch64.cpp}:
     * {@code wsize >= PAD(nbw3, 8) + n_as·8 + n_as·ne12·sizeof(mmid_row_mapping)}, with nbw3 the input
     * converted to Q8_0), for the larger of the graph's two input shapes (x [H, 1, T] and the SwiGLU
     * product [I, k, T]). Its own {@code work_size} reports {@code 8·(1 + n_as)·ne12} for the last two terms,
     * 8·(E − T) bytes short whenever T < E, which the plan's 64 bytes per thread of slack do not always
     * cover (E = 256, T = 1 aborts the process). In a full model graph a larger node usually hides this.
     */
    static long mulMatIdWorkBytes(GgmlCalls ggml, GgmlBatchShape shape) {
        long e = shape.experts();
        long t = shape.tokens();
        long rowMaps = 8 * e + 8 * e * t;
        long upInput = ggml.rowSize(Q8_0, shape.hidden()) * t;
        long downInput = ggml.rowSize(Q8_0, shape.inter()) * shape.topK() * t;
        return ((Math.max(upInput, downInput) + 7) & ~7L) + rowMaps;
    }

    private static MemorySegment find(GgmlLibrary library) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment reg = (MemorySegment) library.handle("ggml_backend_cpu_reg",
                    FunctionDescriptor.of(ADDRESS)).invokeExact();
            MemorySegment device = (MemorySegment) library.handle("ggml_backend_reg_dev_get",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG)).invokeExact(reg, 0L);
            MemorySegment getExtra = (MemorySegment) library.handle("ggml_backend_reg_get_proc_address",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS))
                    .invokeExact(reg, arena.allocateFrom("ggml_backend_dev_get_extra_bufts"));
            if (getExtra.address() == 0) {
                throw new UnsupportedOperationException("the CPU backend offers no extra buffer types");
            }
            MemorySegment list = ((MemorySegment) GgmlLibrary.downcall(getExtra,
                    FunctionDescriptor.of(ADDRESS, ADDRESS)).invokeExact(device)).reinterpret(64 * ADDRESS.byteSize());
            MethodHandle name = library.handle("ggml_backend_buft_name", FunctionDescriptor.of(ADDRESS, ADDRESS));
            for (int i = 0; i < 64; i++) {
                MemorySegment type = list.getAtIndex(ADDRESS, i);
                if (type.address() == 0) {
                    break;
                }
                if (NAME.equals(((MemorySegment) name.invokeExact(type)).reinterpret(256).getString(0))) {
                    return type;
                }
            }
            throw new UnsupportedOperationException("this llama.cpp build has no " + NAME + " buffer type");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }
}
