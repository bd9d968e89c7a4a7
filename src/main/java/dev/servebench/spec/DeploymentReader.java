package dev.servebench.spec;

import dev.servebench.roofline.Deployment;
import dev.servebench.roofline.HardwareFigure;
import dev.servebench.roofline.HardwareFigures;
import dev.servebench.roofline.ModelShape;
import dev.servebench.roofline.Precision;
import dev.servebench.roofline.Sourced;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads {@code model:} and {@code hardware:} (docs/specs.md) into a {@link Deployment}: what the speed-of-light
 * bound of each load point needs (docs/roofline.md). Both or neither; every key is checked on its own.
 */
final class DeploymentReader {

    static final List<String> MODEL_KEYS = List.of("name", "source", "total_params_b", "active_params_b", "layers",
            "hidden_size", "experts", "weight_format", "attention", "tensor_parallel");
    static final List<String> EXPERT_KEYS = List.of("routed", "top_k", "shared", "layers", "intermediate_size");
    static final List<String> ATTENTION_KEYS = List.of("heads", "kv", "kv_heads", "head_dim", "kv_latent", "rope_dim",
            "kv_dtype");
    static final List<String> HARDWARE_KEYS = List.of("name", "gpus", "memory_bandwidth_gb_s", "dense_tflops",
            "allreduce_latency_us", "allreduce_busbw_gb_s");
    static final List<String> FIGURE_KEYS = List.of("value", "source");
    static final String MEASURED = "measured";

    /** Weight formats: bits per weight including block scales, and the precision the GEMMs run in. */
    private enum WeightFormat {
        NVFP4(ModelShape.NVFP4_BITS, Precision.FP4), FP8(ModelShape.FP8_BITS, Precision.FP8),
        BF16(ModelShape.BF16_BITS, Precision.BF16),
        /** IEEE half: the bytes of bf16, and the 16-bit GEMM peak (the hardware's bf16 figure). */
        F16(ModelShape.BF16_BITS, Precision.BF16);

        final double bits;
        final Precision precision;

        WeightFormat(double bits, Precision precision) {
            this.bits = bits;
            this.precision = precision;
        }
    }

    private static final Map<String, Double> KV_DTYPE_BYTES = Map.of("bf16", 2.0, "fp16", 2.0, "fp8", 1.0, "fp32", 4.0);

    private DeploymentReader() {
    }

    /** Empty when neither section is there, or when either was wrong (its errors recorded). */
    static Optional<Deployment> read(Optional<YamlNode> model, Optional<YamlNode> hardware, SpecErrors errors) {
        if (model.isEmpty() && hardware.isEmpty()) {
            return Optional.empty();
        }
        int before = errors.count();
        Optional<ModelRead> m = model.flatMap(n -> errors.section(() -> model(n, errors)));
        Optional<HardwareFigures> h = hardware.flatMap(n -> errors.section(() -> hardware(n, errors)));
        if (model.isEmpty() || hardware.isEmpty()) {
            YamlNode given = model.or(() -> hardware).orElseThrow();
            errors.add(new SpecException(given.position(), (model.isEmpty() ? "hardware: needs a 'model:' section"
                    : "model: needs a 'hardware:' section") + " beside it: the speed-of-light bound needs both"));
        }
        if (errors.count() > before) {
            return Optional.empty();
        }
        YamlNode modelNode = model.orElseThrow();
        return errors.read(() -> guarded(modelNode, () -> new Deployment(m.orElseThrow().shape(),
                m.orElseThrow().source(), h.orElseThrow())));
    }

    private record ModelRead(ModelShape shape, String source) {
    }

    private static Optional<ModelRead> model(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "model", MODEL_KEYS, errors);
        int before = errors.count();
        Optional<String> name = errors.read(() -> fields.string("name"));
        Optional<String> source = errors.read(() -> fields.string("source"));
        Optional<Double> total = errors.read(() -> Values.positiveNumber(fields.required("total_params_b")) * 1e9);
        Optional<Optional<Double>> active = errors.read(() -> fields.optional("active_params_b")
                .map(n -> Values.positiveNumber(n) * 1e9));
        Optional<Integer> layers = errors.read(() -> Values.integer(fields.required("layers"), 1, Integer.MAX_VALUE));
        Optional<Integer> hidden = errors.read(() -> Values.integer(fields.required("hidden_size"), 1, Integer.MAX_VALUE));
        Optional<WeightFormat> format = errors.read(() -> weightFormat(fields.required("weight_format")));
        Optional<Integer> tp = errors.read(() -> fields.integer("tensor_parallel", 1, 4096, 1));
        Optional<Optional<Experts>> experts = errors.read(() -> fields.optional("experts")
                .map(n -> experts(n, layers, errors)));
        Optional<Attention> attention = errors.read(() -> attention(fields.required("attention"), errors));
        if (errors.count() > before) {
            return Optional.empty();
        }
        if (experts.orElseThrow().isPresent() && active.orElseThrow().isEmpty()) {
            throw Values.error(node, "missing required key 'active_params_b': a mixture of experts needs its active"
                    + " parameters (per token) beside total_params_b");
        }
        int layerCount = layers.orElseThrow();
        Attention a = attention.orElseThrow();
        double kvBytes = a.kvBytesPerToken(layerCount);
        boolean split = a.kvSplitByTp(tp.orElseThrow());
        WeightFormat w = format.orElseThrow();
        ModelShape shape = guarded(node, () -> experts.orElseThrow().map(e -> ModelShape.moe(name.orElseThrow(),
                total.orElseThrow(), active.orElseThrow().orElseThrow(), layerCount, e.layers(), hidden.orElseThrow(),
                e.routed(), e.topK(), e.shared(), ModelShape.swigluParams(hidden.orElseThrow(), e.intermediate()),
                w.bits, kvBytes, split, a.width(), w.precision, tp.orElseThrow()))
                .orElseGet(() -> denseModel(name.orElseThrow(), total.orElseThrow(), active.orElseThrow(), layerCount,
                        hidden.orElseThrow(), w, kvBytes, split, a.width(), tp.orElseThrow())));
        return Optional.of(new ModelRead(shape, source.orElseThrow()));
    }

    private static ModelShape denseModel(String name, double total, Optional<Double> active, int layers, int hidden,
            WeightFormat w, double kvBytes, boolean split, double width, int tp) {
        if (active.isPresent() && Math.abs(active.get() - total) > total * 1e-9) {
            throw new IllegalArgumentException("a dense model (no 'experts') uses every parameter per token:"
                    + " active_params_b must equal total_params_b or be left out");
        }
        return ModelShape.dense(name, total, layers, hidden, w.bits, kvBytes, split, width, w.precision, tp);
    }

    /** @param layers MoE layers; @param intermediate the routed experts' FFN width (SwiGLU: 3 matrices) */
    private record Experts(int routed, int topK, int shared, int layers, int intermediate) {
    }

    private static Experts experts(YamlNode node, Optional<Integer> modelLayers, SpecErrors errors) {
        Fields fields = Fields.of(node, "model.experts", EXPERT_KEYS, errors);
        int routed = Values.integer(fields.required("routed"), 1, Integer.MAX_VALUE);
        int topK = Values.integer(fields.required("top_k"), 1, routed);
        int shared = fields.integer("shared", 0, Integer.MAX_VALUE, 0);
        int maxLayers = modelLayers.orElse(Integer.MAX_VALUE);
        YamlNode layersNode = fields.required("layers");
        int layers = Values.integer(layersNode, 1, maxLayers);
        int intermediate = Values.integer(fields.required("intermediate_size"), 1, Integer.MAX_VALUE);
        return new Experts(routed, topK, shared, layers, intermediate);
    }

    /**
     * @param width per-layer width of the attention dot products: heads × head dim (MLA: heads × (latent + rope))
     */
    private record Attention(boolean mla, int heads, int kvHeads, int headDim, int latent, int rope, double kvBytes) {
        double kvBytesPerToken(int layers) {
            return mla ? ModelShape.kvBytesMla(layers, latent, rope, kvBytes)
                    : ModelShape.kvBytesGqa(layers, kvHeads, headDim, kvBytes);
        }

        /** GQA splits its KV heads over the GPUs when there are at least TP of them; MLA's latent is read whole. */
        boolean kvSplitByTp(int tp) {
            return !mla && kvHeads >= tp;
        }

        double width() {
            return mla ? (double) heads * (latent + rope) : (double) heads * headDim;
        }
    }

    private static Attention attention(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "model.attention", ATTENTION_KEYS, errors);
        int heads = Values.integer(fields.required("heads"), 1, Integer.MAX_VALUE);
        YamlNode kvNode = fields.required("kv");
        String kv = Values.string(kvNode);
        double bytes = fields.optional("kv_dtype").map(DeploymentReader::kvDtype).orElse(2.0);
        return switch (kv) {
            case "mla" -> {
                refuse(fields, "kv_heads", "head_dim", "mla");
                yield new Attention(true, heads, 0, 0, Values.integer(fields.required("kv_latent"), 1, Integer.MAX_VALUE),
                        Values.integer(fields.required("rope_dim"), 0, Integer.MAX_VALUE), bytes);
            }
            case "gqa" -> {
                refuse(fields, "kv_latent", "rope_dim", "gqa");
                yield new Attention(false, heads, Values.integer(fields.required("kv_heads"), 1, heads),
                        Values.integer(fields.required("head_dim"), 1, Integer.MAX_VALUE), 0, 0, bytes);
            }
            default -> throw Values.expected(kvNode, "mla (latent KV: kv_latent, rope_dim) or gqa (kv_heads, head_dim)");
        };
    }

    private static void refuse(Fields fields, String first, String second, String kind) {
        for (String key : List.of(first, second)) {
            if (fields.has(key)) {
                throw new SpecException(fields.keyPosition(key), "model.attention: '" + key + "' does not apply to kv: "
                        + kind);
            }
        }
    }

    private static double kvDtype(YamlNode node) {
        Double bytes = KV_DTYPE_BYTES.get(Values.string(node));
        if (bytes == null) {
            throw Values.expected(node, "a KV cache dtype: bf16, fp16, fp8 or fp32");
        }
        return bytes;
    }

    private static WeightFormat weightFormat(YamlNode node) {
        String text = Values.string(node);
        try {
            return WeightFormat.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Values.expected(node, "nvfp4 (4.5 bits with block scales), fp8, bf16 or f16");
        }
    }

    private static Optional<HardwareFigures> hardware(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "hardware", HARDWARE_KEYS, errors);
        int before = errors.count();
        Optional<String> name = errors.read(() -> fields.string("name"));
        Optional<Integer> gpus = errors.read(() -> Values.integer(fields.required("gpus"), 1, 4096));
        Optional<HardwareFigure> memory = errors.read(() -> figure(fields.required("memory_bandwidth_gb_s"), 1e9,
                errors));
        Optional<Map<Precision, HardwareFigure>> flops = errors.read(() -> flops(fields.required("dense_tflops"),
                errors));
        Optional<Optional<HardwareFigure>> latency = errors.read(() -> collective(fields, "allreduce_latency_us",
                1e-6, gpus, errors));
        Optional<Optional<HardwareFigure>> busbw = errors.read(() -> collective(fields, "allreduce_busbw_gb_s",
                1e9, gpus, errors));
        if (errors.count() > before) {
            return Optional.empty();
        }
        return Optional.of(guarded(node, () -> new HardwareFigures(name.orElseThrow(), gpus.orElseThrow(),
                memory.orElseThrow(), flops.orElseThrow(), latency.orElseThrow(), busbw.orElseThrow())));
    }

    /** Required with more than one GPU; a single GPU has no collectives. */
    private static Optional<HardwareFigure> collective(Fields fields, String key, double scale,
            Optional<Integer> gpus, SpecErrors errors) {
        if (!fields.has(key)) {
            if (gpus.isPresent() && gpus.get() > 1) {
                throw new SpecException(fields.mapping().position(), "hardware: missing required key '" + key
                        + "' (" + gpus.get() + " GPUs communicate; a figure with its source, or measured)");
            }
            return Optional.empty();
        }
        return Optional.of(figure(fields.required(key), scale, errors));
    }

    private static Map<Precision, HardwareFigure> flops(YamlNode node, SpecErrors errors) {
        List<String> keys = java.util.Arrays.stream(Precision.values()).map(p -> p.name().toLowerCase(Locale.ROOT))
                .toList();
        Fields fields = Fields.of(node, "hardware.dense_tflops", keys, errors);
        Map<Precision, HardwareFigure> flops = new EnumMap<>(Precision.class);
        for (Precision p : Precision.values()) {
            String key = p.name().toLowerCase(Locale.ROOT);
            fields.optional(key).flatMap(n -> errors.read(() -> figure(n, 1e12, errors))).ifPresent(f -> flops.put(p, f));
        }
        if (flops.isEmpty() && fields.mapping().entries().isEmpty()) {
            throw Values.expected(node, "the dense (not sparse) TFLOP/s of at least one of " + String.join(", ", keys));
        }
        return flops;
    }

    /** {@code measured}, or {@code {value: N, source: "..."}} with N in the key's unit (times {@code scale} to SI). */
    private static HardwareFigure figure(YamlNode node, double scale, SpecErrors errors) {
        if (node instanceof YamlNode.Scalar scalar && scalar.type() == YamlNode.ScalarType.STRING
                && scalar.text().equals(MEASURED)) {
            return new HardwareFigure.Measured();
        }
        if (!(node instanceof YamlNode.Mapping)) {
            throw Values.expected(node, "'measured' (from the kernel suite's results of the run) or {value: NUMBER,"
                    + " source: \"where it comes from\"}");
        }
        Fields fields = Fields.of(node, YamlNode.name(node), FIGURE_KEYS, errors);
        List<SpecError> problems = new java.util.ArrayList<>();
        double value = 0;
        String source = "";
        try {
            value = Values.positiveNumber(fields.required("value"));
        } catch (SpecException e) {
            problems.addAll(e.errors());
        }
        try {
            source = Values.string(fields.required("source"));
        } catch (SpecException e) {
            problems.addAll(e.errors());
        }
        if (!problems.isEmpty()) {
            throw new SpecException(problems);
        }
        return new HardwareFigure.Given(Sourced.of(value * scale, source));
    }

    /** A shape's own consistency checks, as errors at the section. */
    private static <T> T guarded(YamlNode node, Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw Values.error(node, e.getMessage());
        }
    }
}
