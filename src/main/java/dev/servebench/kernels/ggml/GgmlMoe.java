package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;

import dev.servebench.kernels.Segments;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * llama.cpp's routed-expert MoE FFN for a fixed batch, built the way b4916's
 * {@code llm_graph_context::build_moe_ffn} builds it (SiLU, no input weighting, separate up and gate):
 * <pre>
 *   x    [H, 1, T] f32      ids [k, T] i32      w [1, k, T] f32
 *   up   = mul_mat_id(ffn_up_exps,   x, ids)          [I, k, T]
 *   gate = silu(mul_mat_id(ffn_gate_exps, x, ids))    [I, k, T]
 *   down = mul_mat_id(ffn_down_exps, gate * up, ids)  [H, k, T]
 *   out  = Σ_j view_2d(down * w, j)                   [H, T]   (ggml_add, j = 0 … k−1 in order)
 * </pre>
 * The graph, its plan ({@code ggml_graph_plan}) and the work buffer are made once here; {@link #compute()}
 * is one {@code ggml_graph_compute} call, without the per-call allocation of
 * {@code ggml_graph_compute_with_ctx}. Activations are fp32 in the graph; each {@code mul_mat_id} converts
 * them to the weights' vec_dot type ({@link GgmlWeightType#activationType()}) internally.
 *
 * <p>Not thread-safe: one thread at a time may set inputs or compute (ggml's own threads run inside
 * {@code compute}).
 */
public final class GgmlMoe implements AutoCloseable {

    private final GgmlCalls ggml;
    private final GgmlExperts experts;
    private final boolean ownsExperts;
    private final GgmlBatchShape shape;
    private final int threads;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment graph;
    private final MemorySegment plan;
    private final MemorySegment xData;
    private final MemorySegment idsData;
    private final MemorySegment weightsData;
    private final MemorySegment outData;
    private final long workBytes;
    private boolean inputsSet;
    private volatile boolean open = true;

    /** Converts the weights into a {@link GgmlExperts} of its own, closed with this instance. */
    public GgmlMoe(GgmlLibrary library, int hidden, int inter, int experts, int topK, int tokens,
            GgmlWeightType type, ExpertWeights weights, int threads) {
        this(checkedExperts(library, hidden, inter, experts, topK, tokens, type, weights, threads), true, topK, tokens,
                threads);
    }

    /** Shares already converted experts (close them after every graph using them). */
    public GgmlMoe(GgmlExperts experts, int topK, int tokens, int threads) {
        this(Objects.requireNonNull(experts, "experts"), false, topK, tokens, threads);
    }

    private GgmlMoe(GgmlExperts experts, boolean ownsExperts, int topK, int tokens, int threads) {
        if (!experts.isOpen()) {
            throw new IllegalStateException("experts are closed");
        }
        GgmlBatchShape checked = new GgmlBatchShape(experts.hidden(), experts.inter(), experts.experts(), topK, tokens);
        requireThreads(threads);
        this.ggml = experts.library().calls();
        this.experts = experts;
        this.ownsExperts = ownsExperts;
        this.shape = checked;
        this.threads = threads;
        MemorySegment created = MemorySegment.NULL;
        try {
            long contextBytes = MoeGraph.contextBytes(ggml, checked);
            created = ggml.init(contextBytes, arena.allocate(contextBytes, 64));
            this.context = created;
            MoeGraph built = MoeGraph.build(ggml, context, experts, checked);
            this.graph = built.graph();
            this.xData = expectBytes(ggml.data(built.x()), "x", (long) checked.activationElements() * Float.BYTES);
            this.idsData = expectBytes(ggml.data(built.ids()), "ids", (long) checked.routingElements() * Integer.BYTES);
            this.weightsData = expectBytes(ggml.data(built.weights()), "weights",
                    (long) checked.routingElements() * Float.BYTES);
            this.outData = expectBytes(ggml.data(built.out()), "out", (long) checked.activationElements() * Float.BYTES);
            this.plan = ggml.graphPlan(arena, graph, threads);
            long planned = GgmlStructs.verifiedWorkSize(plan, threads);
            this.workBytes = experts.type().cpuRepacked()
                    ? Math.max(planned, CpuRepackBuffer.mulMatIdWorkBytes(ggml, checked)) : planned;
            GgmlStructs.CPLAN_WORK_SIZE.set(plan, 0L, workBytes);
            MemorySegment work = workBytes == 0 ? MemorySegment.NULL : arena.allocate(workBytes, 64);
            GgmlStructs.CPLAN_WORK_DATA.set(plan, 0L, work);
        } catch (RuntimeException | Error e) {
            if (!created.equals(MemorySegment.NULL)) {
                ggml.free(created);
            }
            arena.close();
            if (ownsExperts) {
                experts.close();
            }
            throw e;
        }
    }

    public GgmlBatchShape shape() {
        return shape;
    }

    public GgmlWeightType type() {
        return experts.type();
    }

    public int threads() {
        return threads;
    }

    /** Size of the work buffer: what {@code ggml_graph_plan} asked for, or for Q4_0_REPACKED what the kernel checks. */
    public long workBytes() {
        return workBytes;
    }

    /**
     * Copies one batch in: {@code x} is [T][H], {@code ids} [T][k] expert indices in [0, E), {@code weights}
     * [T][k] routing weights (already normalised/scaled as the model wants; they multiply the expert outputs).
     */
    public void setInputs(float[] x, int[] ids, float[] weights) {
        requireOpen();
        requireLength(Objects.requireNonNull(x, "x").length, "x", shape.activationElements(), "tokens × hidden");
        requireLength(Objects.requireNonNull(ids, "ids").length, "ids", shape.routingElements(), "tokens × topK");
        requireLength(Objects.requireNonNull(weights, "weights").length, "weights", shape.routingElements(),
                "tokens × topK");
        for (int i = 0; i < ids.length; i++) {
            requireExpert(ids[i], i);
        }
        MemorySegment.copy(x, 0, xData, JAVA_FLOAT, 0, x.length);
        MemorySegment.copy(ids, 0, idsData, JAVA_INT, 0, ids.length);
        MemorySegment.copy(weights, 0, weightsData, JAVA_FLOAT, 0, weights.length);
        inputsSet = true;
    }

    /** As {@link #setInputs(float[], int[], float[])} from native segments (native byte order, same layouts). */
    public void setInputs(MemorySegment x, MemorySegment ids, MemorySegment weights) {
        requireOpen();
        Segments.requireBytes(x, "x", xData.byteSize());
        Segments.requireBytes(ids, "ids", idsData.byteSize());
        Segments.requireBytes(weights, "weights", weightsData.byteSize());
        for (int i = 0; i < shape.routingElements(); i++) {
            requireExpert(ids.get(JAVA_INT_UNALIGNED, (long) i * Integer.BYTES), i);
        }
        MemorySegment.copy(x, 0, xData, 0, xData.byteSize());
        MemorySegment.copy(ids, 0, idsData, 0, idsData.byteSize());
        MemorySegment.copy(weights, 0, weightsData, 0, weightsData.byteSize());
        inputsSet = true;
    }

    /** Runs the graph once on {@link #threads()} threads; the inputs stay, so it can be repeated. */
    public void compute() {
        requireOpen();
        if (!inputsSet) {
            throw new IllegalStateException("compute() before setInputs(): the routing ids are not set");
        }
        int status = ggml.graphCompute(graph, plan);
        if (status != 0) {
            throw new IllegalStateException("ggml_graph_compute returned status " + status + " (0 = GGML_STATUS_SUCCESS)");
        }
    }

    /** The last result, [T][H] fp32. */
    public float[] output() {
        requireOpen();
        return outData.toArray(JAVA_FLOAT);
    }

    /** The last result without a copy; read-only, valid until {@link #close()}. */
    public MemorySegment outputView() {
        requireOpen();
        return outData.asReadOnly();
    }

    @Override
    public synchronized void close() {
        if (open) {
            open = false;
            ggml.free(context);
            arena.close();
            if (ownsExperts) {
                experts.close();
            }
        }
    }

    private void requireOpen() {
        if (!open) {
            throw new IllegalStateException("this GgmlMoe is closed");
        }
        if (!experts.isOpen()) {
            throw new IllegalStateException("the GgmlExperts this graph uses have been closed");
        }
    }

    private void requireExpert(int id, int index) {
        if (id < 0 || id >= shape.experts()) {
            throw new IllegalArgumentException("ids[token " + index / shape.topK() + "][slot " + index % shape.topK()
                    + "] = " + id + " is out of range; expected 0 <= id < " + shape.experts() + " (experts)");
        }
    }

    private static void requireLength(int length, String name, int expected, String formula) {
        if (length != expected) {
            throw new IllegalArgumentException(name + " has " + length + " elements; expected " + expected + " ("
                    + formula + ")");
        }
    }

    private static void requireThreads(int threads) {
        Segments.requireThreads(threads);
        if (threads > GgmlStructs.MAX_THREADS) {
            throw new IllegalArgumentException("threads = " + threads + "; ggml allows at most " + GgmlStructs.MAX_THREADS);
        }
    }

    private static MemorySegment expectBytes(MemorySegment data, String tensor, long expected) {
        if (data.byteSize() != expected) {
            throw new IllegalStateException("ggml tensor " + tensor + " has " + data.byteSize() + " bytes; expected " + expected);
        }
        return data;
    }

    /** Checks everything before converting weights, which for a real layer takes seconds. */
    private static GgmlExperts checkedExperts(GgmlLibrary library, int hidden, int inter, int experts, int topK,
            int tokens, GgmlWeightType type, ExpertWeights weights, int threads) {
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(weights, "weights");
        new GgmlBatchShape(hidden, inter, experts, topK, tokens).requireBlocks(type);
        requireThreads(threads);
        return new GgmlExperts(library, hidden, inter, experts, type, weights);
    }
}
