package dev.servebench.roofline;

import java.util.Objects;

/**
 * What a model costs per token, as far as the roofline needs it. Parameter counts are plain numbers of
 * parameters (not bytes); {@code kvBytesPerToken} covers all layers.
 *
 * @param name                  a label for tables and errors
 * @param totalParams           all parameters (for the record and a consistency check)
 * @param activeParams          parameters used per token (dense + top-k routed experts): the FLOP count
 * @param layers                transformer layers (one attention + one FFN each); collectives count per layer
 * @param moeLayers             layers whose FFN has routed experts (0 for a dense model)
 * @param hiddenSize            model width: the allreduce message is tokens × hidden × 2 bytes
 * @param routedExperts         routed experts per MoE layer, E (0 for a dense model)
 * @param topK                  routed experts per token, k (0 for a dense model)
 * @param sharedExperts         shared (always active) experts per MoE layer; their weights are in denseParams
 * @param paramsPerRoutedExpert parameters of one routed expert in one layer (SwiGLU: 3 × hidden × intermediate)
 * @param denseParams           parameters read every step whatever the routing (attention, shared experts,
 *                              dense FFNs, norms, output head)
 * @param weightBitsPerParam    bits per weight including block scales (NVFP4 4.5, FP8 8, BF16 16)
 * @param kvBytesPerToken       KV-cache bytes one token occupies, all layers together
 * @param kvShardedByTp         true when tensor parallelism splits the KV cache over the GPUs (GQA with at
 *                              least TP KV heads); false when every GPU reads all of it (MLA's shared latent)
 * @param attentionWidth        per-layer width of the attention dot products per context position
 *                              (heads × head dim; for MLA with absorbed weights heads × (latent + rope))
 * @param precision             the format the GEMMs run in, which picks the hardware's peak FLOP/s
 * @param tensorParallel        tensor-parallel degree: weights and FLOPs are split over this many GPUs
 */
public record ModelShape(
        String name,
        double totalParams,
        double activeParams,
        int layers,
        int moeLayers,
        int hiddenSize,
        int routedExperts,
        int topK,
        int sharedExperts,
        double paramsPerRoutedExpert,
        double denseParams,
        double weightBitsPerParam,
        double kvBytesPerToken,
        boolean kvShardedByTp,
        double attentionWidth,
        Precision precision,
        int tensorParallel) {

    /** NVFP4: 4-bit E2M1 values plus one 8-bit E4M3 scale per 16 values (the fp32 global scale is negligible). */
    public static final double NVFP4_BITS = 4 + 8.0 / 16;
    /** FP8 (E4M3) with per-tensor or per-channel scales, which are negligible. */
    public static final double FP8_BITS = 8;
    public static final double BF16_BITS = 16;

    public ModelShape {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(precision, "precision");
        if (name.isBlank()) throw new IllegalArgumentException("model name must not be blank");
        positive(name, "totalParams", totalParams);
        positive(name, "activeParams", activeParams);
        if (activeParams > totalParams) {
            throw bad(name, "activeParams (" + activeParams + ") exceeds totalParams (" + totalParams + ")");
        }
        if (layers < 1) throw bad(name, "layers must be >= 1, got " + layers);
        if (hiddenSize < 1) throw bad(name, "hiddenSize must be >= 1, got " + hiddenSize);
        if (sharedExperts < 0) throw bad(name, "sharedExperts must be >= 0, got " + sharedExperts);
        if (routedExperts < 0) throw bad(name, "routedExperts must be >= 0, got " + routedExperts);
        if (routedExperts == 0) {
            if (topK != 0 || moeLayers != 0 || paramsPerRoutedExpert != 0) {
                throw bad(name, "a dense model (routedExperts = 0) needs topK = 0, moeLayers = 0 and "
                        + "paramsPerRoutedExpert = 0");
            }
        } else {
            if (topK < 1 || topK > routedExperts) {
                throw bad(name, "topK must be in 1.." + routedExperts + ", got " + topK);
            }
            if (moeLayers < 1 || moeLayers > layers) {
                throw bad(name, "moeLayers must be in 1.." + layers + ", got " + moeLayers);
            }
            positive(name, "paramsPerRoutedExpert", paramsPerRoutedExpert);
        }
        nonNegative(name, "denseParams", denseParams);
        double routedAll = (double) routedExperts * paramsPerRoutedExpert * moeLayers;
        if (denseParams + routedAll > totalParams * 1.001) {
            throw bad(name, String.format(java.util.Locale.ROOT,
                    "denseParams (%.4g) + all routed experts (%d × %.4g × %d layers = %.4g) exceed totalParams (%.4g)",
                    denseParams, routedExperts, paramsPerRoutedExpert, moeLayers, routedAll, totalParams));
        }
        double activeRouted = (double) topK * paramsPerRoutedExpert * moeLayers;
        if (denseParams + activeRouted > activeParams * 1.001) {
            throw bad(name, String.format(java.util.Locale.ROOT,
                    "denseParams (%.4g) + top-k routed experts (%.4g) exceed activeParams (%.4g)",
                    denseParams, activeRouted, activeParams));
        }
        if (!(weightBitsPerParam > 0 && weightBitsPerParam <= 64)) {
            throw bad(name, "weightBitsPerParam must be in (0, 64], got " + weightBitsPerParam);
        }
        nonNegative(name, "kvBytesPerToken", kvBytesPerToken);
        nonNegative(name, "attentionWidth", attentionWidth);
        if (tensorParallel < 1) throw bad(name, "tensorParallel must be >= 1, got " + tensorParallel);
    }

    /** A dense transformer: every parameter is read and used for every token. */
    public static ModelShape dense(String name, double params, int layers, int hiddenSize, double weightBits,
            double kvBytesPerToken, boolean kvShardedByTp, double attentionWidth, Precision precision,
            int tensorParallel) {
        return new ModelShape(name, params, params, layers, 0, hiddenSize, 0, 0, 0, 0, params, weightBits,
                kvBytesPerToken, kvShardedByTp, attentionWidth, precision, tensorParallel);
    }

    /**
     * A mixture of experts whose always-read parameters are derived from the active count:
     * dense = active − k × paramsPerRoutedExpert × moeLayers.
     */
    public static ModelShape moe(String name, double totalParams, double activeParams, int layers, int moeLayers,
            int hiddenSize, int routedExperts, int topK, int sharedExperts, double paramsPerRoutedExpert,
            double weightBits, double kvBytesPerToken, boolean kvShardedByTp, double attentionWidth,
            Precision precision, int tensorParallel) {
        double dense = activeParams - (double) topK * paramsPerRoutedExpert * moeLayers;
        if (dense < 0) {
            throw bad(name, String.format(java.util.Locale.ROOT,
                    "top-k routed experts (%d × %.4g × %d layers) exceed activeParams (%.4g)",
                    topK, paramsPerRoutedExpert, moeLayers, activeParams));
        }
        return new ModelShape(name, totalParams, activeParams, layers, moeLayers, hiddenSize, routedExperts, topK,
                sharedExperts, paramsPerRoutedExpert, dense, weightBits, kvBytesPerToken, kvShardedByTp,
                attentionWidth, precision, tensorParallel);
    }

    /** The same model under another tensor-parallel degree. */
    public ModelShape withTensorParallel(int tp) {
        return new ModelShape(name, totalParams, activeParams, layers, moeLayers, hiddenSize, routedExperts, topK,
                sharedExperts, paramsPerRoutedExpert, denseParams, weightBitsPerParam, kvBytesPerToken,
                kvShardedByTp, attentionWidth, precision, tp);
    }

    /** Parameters of a SwiGLU FFN (gate, up, down): 3 × hidden × intermediate. */
    public static double swigluParams(int hidden, int intermediate) {
        return 3.0 * hidden * intermediate;
    }

    /** KV bytes per token with (grouped-query) multi-head attention: 2 (K and V) × layers × kvHeads × headDim × bytes. */
    public static double kvBytesGqa(int layers, int kvHeads, int headDim, double bytesPerValue) {
        return 2.0 * layers * kvHeads * headDim * bytesPerValue;
    }

    /** KV bytes per token with multi-head latent attention: layers × (latent + rope key dim) × bytes. */
    public static double kvBytesMla(int layers, int latentDim, int ropeDim, double bytesPerValue) {
        return (double) layers * (latentDim + ropeDim) * bytesPerValue;
    }

    /** Bytes of one routed expert in one layer. */
    public double bytesPerRoutedExpert() {
        return paramsPerRoutedExpert * weightBitsPerParam / 8;
    }

    /** Bytes of the parameters read every step. */
    public double denseBytes() {
        return denseParams * weightBitsPerParam / 8;
    }

    /**
     * Expected distinct routed experts per MoE layer when T tokens each pick k of E uniformly:
     * E × (1 − (1 − k/E)^T). 0 for a dense model; k for T = 1; tends to E as T grows.
     */
    public double expectedDistinctExperts(double tokens) {
        if (routedExperts == 0 || tokens <= 0) return 0;
        double e = routedExperts;
        return e * -Math.expm1(tokens * Math.log1p(-topK / e));
    }

    private static void positive(String model, String what, double v) {
        if (!(Double.isFinite(v) && v > 0)) throw bad(model, what + " must be finite and > 0, got " + v);
    }

    private static void nonNegative(String model, String what, double v) {
        if (!(Double.isFinite(v) && v >= 0)) throw bad(model, what + " must be finite and >= 0, got " + v);
    }

    private static IllegalArgumentException bad(String model, String message) {
        return new IllegalArgumentException("model " + model + ": " + message);
    }
}
