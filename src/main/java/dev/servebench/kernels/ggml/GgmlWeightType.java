package dev.servebench.kernels.ggml;

/**
 * Expert weight formats the baseline stores, with their {@code enum ggml_type} ids.
 *
 * <p>Activations stay fp32 in the graph. Each matrix product converts its fp32 activation rows to the
 * weight type's "vec_dot type" first ({@code ggml_get_type_traits_cpu(type)->vec_dot_type} in b4916) and
 * multiplies in that format, so the activation rounding is part of what the baseline measures.
 */
public enum GgmlWeightType {
    /** fp32 weights, fp32 activations: exact up to fp32 summation order. */
    F32(0, 1, "F32"),
    /** IEEE half weights; activations rounded to fp16 (round-to-nearest-even), products summed in fp32. */
    F16(1, 1, "F16"),
    /**
     * 4-bit blocks of 32 with one fp16 scale (18 bytes per 32 weights); activations quantized to Q8_0
     * (blocks of 32, 8-bit, one fp16 scale), integer block dot products scaled and summed in fp32.
     */
    Q4_0(2, 32, "Q8_0"),
    /**
     * The same Q4_0 weights placed in the CPU backend's {@code CPU_AARCH64} extra buffer, which b4916 repacks
     * into 8-row interleaved blocks on AVX2 and multiplies with its own kernels. llama.cpp's model loader does
     * this by default for Q4_0, so this is the engine's actual Q4_0 expert path; rows (inter for up/gate,
     * hidden for down) must come in multiples of 8.
     */
    Q4_0_REPACKED(2, 32, "Q8_0");

    private final int ggmlType;
    private final int blockSize;
    private final String activationType;

    GgmlWeightType(int ggmlType, int blockSize, String activationType) {
        this.ggmlType = ggmlType;
        this.blockSize = blockSize;
        this.activationType = activationType;
    }

    /** The {@code enum ggml_type} value. */
    public int ggmlType() {
        return ggmlType;
    }

    /** Elements per block; every row length (hidden for up/gate, inter for down) must be a multiple of it. */
    public int blockSize() {
        return blockSize;
    }

    /** Whether the weights go into the CPU backend's repacking buffer instead of plain context memory. */
    public boolean cpuRepacked() {
        return this == Q4_0_REPACKED;
    }

    /** The format ggml converts activations to before multiplying with weights of this type. */
    public String activationType() {
        return activationType;
    }
}
