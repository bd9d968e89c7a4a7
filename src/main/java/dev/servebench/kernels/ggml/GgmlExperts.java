package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The expert weights of one MoE layer as llama.cpp stores them: three 3-D ggml tensors
 * {@code ffn_up_exps}, {@code ffn_gate_exps} with ne = [H, I, E] and {@code ffn_down_exps} with
 * ne = [I, H, E] (ne[0] is the contiguous dimension, so each expert is a stack of output-feature rows).
 *
 * <p>The weights live in native memory owned here (a ggml context buffer, or for
 * {@link GgmlWeightType#Q4_0_REPACKED} a CPU backend buffer), not on the Java heap. Several
 * {@link GgmlMoe} graphs, one per batch size, can share one instance; close it after them.
 */
public final class GgmlExperts implements AutoCloseable {

    private final GgmlLibrary library;
    private final GgmlCalls ggml;
    private final int hidden;
    private final int inter;
    private final int experts;
    private final GgmlWeightType type;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment up;
    private final MemorySegment gate;
    private final MemorySegment down;
    private final CpuRepackBuffer repack;
    private final MemorySegment repackBuffer;
    private volatile boolean open = true;

    /**
     * Converts every expert from {@code weights} into {@code type}: fp32 is copied, F16 goes through
     * {@code ggml_fp32_to_fp16_row} (round to nearest even), Q4_0 through {@code ggml_quantize_chunk}
     * without an importance matrix (the reference quantizer llama-quantize also uses for Q4_0).
     */
    public GgmlExperts(GgmlLibrary library, int hidden, int inter, int experts, GgmlWeightType type,
            ExpertWeights weights) {
        this.library = Objects.requireNonNull(library, "library");
        this.ggml = library.calls();
        this.type = Objects.requireNonNull(type, "type");
        Objects.requireNonNull(weights, "weights");
        new GgmlBatchShape(hidden, inter, experts, 1, 1).requireBlocks(type);
        if (type.cpuRepacked() && !library.hasAvx2()) {
            throw new UnsupportedOperationException(type + " needs the AVX2 repack kernels; " + library.fingerprint());
        }
        this.hidden = hidden;
        this.inter = inter;
        this.experts = experts;

        long upGateBytes = (long) experts * inter * ggml.rowSize(type.ggmlType(), hidden);
        long downBytes = (long) experts * hidden * ggml.rowSize(type.ggmlType(), inter);
        // With a backend buffer the context holds only the three tensor headers.
        long dataBytes = type.cpuRepacked() ? 0 : 2 * pad(upGateBytes) + pad(downBytes);
        long contextBytes = dataBytes + 3 * ggml.tensorOverhead() + 4096;
        this.repack = type.cpuRepacked() ? new CpuRepackBuffer(library) : null;
        MemorySegment createdContext = MemorySegment.NULL;
        MemorySegment createdBuffer = MemorySegment.NULL;
        try {
            createdContext = ggml.init(contextBytes, arena.allocate(contextBytes, 64), type.cpuRepacked());
            this.context = createdContext;
            this.up = ggml.newTensor3d(context, type.ggmlType(), hidden, inter, experts);
            this.gate = ggml.newTensor3d(context, type.ggmlType(), hidden, inter, experts);
            this.down = ggml.newTensor3d(context, type.ggmlType(), inter, hidden, experts);
            createdBuffer = repack == null ? MemorySegment.NULL : repack.allocate(context);
            this.repackBuffer = createdBuffer;
            store(up, upGateBytes, weights::up, inter, hidden);
            store(gate, upGateBytes, weights::gate, inter, hidden);
            store(down, downBytes, weights::down, hidden, inter);
        } catch (RuntimeException | Error e) {
            if (createdBuffer.address() != 0) {
                repack.free(createdBuffer);
            }
            if (createdContext.address() != 0) {
                ggml.free(createdContext);
            }
            arena.close();
            throw e;
        }
    }

    public int hidden() {
        return hidden;
    }

    public int inter() {
        return inter;
    }

    public int experts() {
        return experts;
    }

    public GgmlWeightType type() {
        return type;
    }

    /** Bytes of all three expert tensors in their stored format. */
    public long weightBytes() {
        return ggml.nbytes(up) + ggml.nbytes(gate) + ggml.nbytes(down);
    }

    public boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() {
        if (open) {
            open = false;
            if (repack != null) {
                repack.free(repackBuffer);
            }
            ggml.free(context);
            arena.close();
        }
    }

    GgmlLibrary library() {
        return library;
    }

    MemorySegment upTensor() {
        return up;
    }

    MemorySegment gateTensor() {
        return gate;
    }

    MemorySegment downTensor() {
        return down;
    }

    /** One matrix of one expert, as {@link ExpertWeights} hands it out. */
    private interface Supplier {
        void fill(int expert, float[] out);
    }

    /**
     * Converts all experts of one tensor. Plain types are written straight into the tensor's data; the
     * repacking buffer only takes a whole tensor at once, so its plain Q4_0 image is built in a
     * temporary buffer first (peak memory: the final buffer plus one tensor).
     */
    private void store(MemorySegment tensor, long bytes, Supplier supplier, int rows, int perRow) {
        float[] matrix = new float[rows * perRow];
        long stride = bytes / experts;
        try (Arena scratchArena = Arena.ofConfined()) {
            MemorySegment scratch = type == GgmlWeightType.F32 ? MemorySegment.NULL
                    : scratchArena.allocate((long) matrix.length * Float.BYTES, 64);
            MemorySegment target = repack == null ? ggml.data(tensor) : scratchArena.allocate(bytes, 64);
            for (int e = 0; e < experts; e++) {
                supplier.fill(e, matrix);
                convert(matrix, scratch, target.asSlice(e * stride, stride), rows, perRow);
            }
            if (repack != null) {
                repack.setWhole(tensor, target);
            }
        }
    }

    /** Writes one expert matrix of {@code rows × perRow} fp32 values into its slice of a tensor. */
    private void convert(float[] matrix, MemorySegment scratch, MemorySegment slice, int rows, int perRow) {
        switch (type) {
            case F32 -> MemorySegment.copy(matrix, 0, slice, JAVA_FLOAT, 0, matrix.length);
            case F16 -> {
                MemorySegment.copy(matrix, 0, scratch, JAVA_FLOAT, 0, matrix.length);
                ggml.fp32ToFp16Row(scratch, slice, matrix.length);
            }
            case Q4_0, Q4_0_REPACKED -> {
                MemorySegment.copy(matrix, 0, scratch, JAVA_FLOAT, 0, matrix.length);
                long written = ggml.quantizeRows(type.ggmlType(), scratch, slice, rows, perRow);
                if (written != slice.byteSize()) {
                    throw new IllegalStateException("ggml_quantize_chunk wrote " + written + " bytes for one expert; expected "
                            + slice.byteSize());
                }
            }
        }
    }

    private static long pad(long bytes) {
        return (bytes + 15) & ~15L; // GGML_MEM_ALIGN: ggml rounds every object in a context up to 16 bytes
    }
}
