package dev.servebench.kernels.ggml;

import java.lang.foreign.MemorySegment;

/** The tensors of one built MoE graph (see {@link GgmlMoe} for the formula), all in one ggml context. */
record MoeGraph(MemorySegment graph, MemorySegment x, MemorySegment ids, MemorySegment weights, MemorySegment out) {

    private static final int F32 = GgmlWeightType.F32.ggmlType();

    /** Nodes and leaves stay below this: 6 ops, k views, k − 1 adds, a cont; 3 inputs, 3 expert tensors. */
    static long graphSize(GgmlBatchShape shape) {
        return 2L * shape.topK() + 16;
    }

    /**
     * Bytes the context needs: every tensor ggml allocates in it (rounded to {@code GGML_MEM_ALIGN} = 16),
     * one {@code ggml_tensor_overhead()} per tensor or view, and the graph. ggml aborts the process when a
     * context runs out, so this errs on the generous side.
     */
    static long contextBytes(GgmlCalls ggml, GgmlBatchShape shape) {
        long h = shape.hidden();
        long i = shape.inter();
        long k = shape.topK();
        long t = shape.tokens();
        long data = pad(h * t * 4) + 2 * pad(k * t * 4)   // x, ids, w
                + 4 * pad(i * k * t * 4)                    // up, gate, silu(gate), up * gate
                + 2 * pad(h * k * t * 4)                    // down, down * w
                + k * pad(h * t * 4);                       // k − 1 adds, or one cont when k = 1
        long tensors = 2 * k + 16;
        return data + tensors * ggml.tensorOverhead() + ggml.graphOverhead(graphSize(shape)) + (64 << 10);
    }

    static MoeGraph build(GgmlCalls lib, MemorySegment ctx, GgmlExperts experts, GgmlBatchShape shape) {
        long h = shape.hidden();
        long k = shape.topK();
        long t = shape.tokens();
        // b4916 reshapes cur to [H, 1, T]; mul_mat_id broadcasts the middle dimension over the k slots.
        MemorySegment x = lib.newTensor3d(ctx, F32, h, 1, t);
        MemorySegment ids = lib.newTensor2d(ctx, GgmlStructs.TYPE_I32, k, t);
        MemorySegment weights = lib.newTensor3d(ctx, F32, 1, k, t);

        // Same ops in the same order as b4916 (its callback names: ffn_moe_up, ffn_moe_gate, ffn_moe_silu,
        // ffn_moe_gate_par, ffn_moe_down, then an unnamed multiply by the weights, ffn_moe_out).
        MemorySegment up = lib.mulMatId(ctx, experts.upTensor(), x, ids);
        MemorySegment gate = lib.mulMatId(ctx, experts.gateTensor(), x, ids);
        MemorySegment par = lib.mul(ctx, lib.silu(ctx, gate), up);
        MemorySegment down = lib.mulMatId(ctx, experts.downTensor(), par, ids);
        down = lib.mul(ctx, down, weights);

        // down is [H, k, T] contiguous: slot j of token t starts at (t·k + j)·H floats.
        long rowStride = h * k * Float.BYTES;
        MemorySegment out = lib.view2d(ctx, down, h, t, rowStride, 0);
        for (long j = 1; j < k; j++) {
            out = lib.add(ctx, out, lib.view2d(ctx, down, h, t, rowStride, j * h * Float.BYTES));
        }
        if (k == 1) {
            out = lib.cont(ctx, out); // as b4916 does: a lone view is not contiguous
        }
        MemorySegment graph = lib.newGraph(ctx, graphSize(shape));
        lib.buildForwardExpand(graph, out);
        return new MoeGraph(graph, x, ids, weights, out);
    }

    private static long pad(long bytes) {
        return (bytes + 15) & ~15L;
    }
}
