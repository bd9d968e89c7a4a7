package dev.servebench.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.servebench.roofline.DecodeBound;
import dev.servebench.roofline.Deployment;
import dev.servebench.roofline.HardwareShape;
import dev.servebench.roofline.ModelShape;
import dev.servebench.roofline.PointBound;
import dev.servebench.roofline.PointRoofline;
import dev.servebench.roofline.Sourced;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A load point's speed-of-light bound as JSON, under {@code servebench.roofline} of a summary and per point of
 * measurements.json: the inputs (model and hardware figures with their sources), batch and context, the bound
 * output tok/s, min ITL, the three times and the limiting term, and the measured fractions
 * ({@code output_throughput_of_roofline}, {@code itl_of_bound}; null when not measured). Without a bound:
 * {@code bounded: false} and the reason. The {@code bounded} field says which record a reader gets.
 */
@JsonDeserialize(using = RooflineJson.Reader.class)
public sealed interface RooflineJson permits RooflineJson.Bounded, RooflineJson.Unbounded {

    String KEY = "roofline";

    @JsonProperty("bounded")
    boolean bounded();

    Model model();

    @JsonDeserialize(using = JsonDeserializer.None.class)
    @JsonPropertyOrder({"bounded", "reason", "model"})
    @JsonIgnoreProperties(value = "bounded", allowGetters = true)
    record Unbounded(String reason, Model model) implements RooflineJson {
        public Unbounded {
            Objects.requireNonNull(reason, "roofline.reason");
            Objects.requireNonNull(model, "roofline.model");
        }

        @Override
        public boolean bounded() {
            return false;
        }
    }

    /** @param outputThroughputOfRoofline null when not measured, as is {@code itlOfBound} */
    @JsonDeserialize(using = JsonDeserializer.None.class)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"bounded", "batch", "context_tokens", "roofline_output_throughput",
            "additive_output_throughput", "min_itl_ms", "memory_ms", "compute_ms", "communication_ms",
            "limiting_term", "output_throughput_of_roofline", "itl_of_bound", "description", "model", "hardware"})
    @JsonIgnoreProperties(value = "bounded", allowGetters = true)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Bounded(int batch, int contextTokens, double rooflineOutputThroughput, double additiveOutputThroughput,
            double minItlMs, double memoryMs, double computeMs, double communicationMs, String limitingTerm,
            Double outputThroughputOfRoofline, Double itlOfBound, String description, Model model, Hardware hardware)
            implements RooflineJson {
        public Bounded {
            Objects.requireNonNull(limitingTerm, "roofline.limiting_term");
            Objects.requireNonNull(description, "roofline.description");
            Objects.requireNonNull(model, "roofline.model");
            Objects.requireNonNull(hardware, "roofline.hardware");
        }

        @Override
        public boolean bounded() {
            return true;
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"name", "source", "total_params", "active_params", "dense_params", "layers", "moe_layers",
            "hidden_size", "routed_experts", "top_k", "shared_experts", "params_per_routed_expert",
            "weight_bits_per_param", "kv_bytes_per_token", "kv_split_by_tp", "attention_width", "precision",
            "tensor_parallel"})
    record Model(String name, String source, double totalParams, double activeParams, double denseParams, int layers,
            int moeLayers, int hiddenSize, int routedExperts, int topK, int sharedExperts,
            double paramsPerRoutedExpert, double weightBitsPerParam, double kvBytesPerToken,
            @JsonProperty("kv_split_by_tp") boolean kvSplitByTp, double attentionWidth, String precision,
            int tensorParallel) {
        static Model of(ModelShape m, String source) {
            return new Model(m.name(), source, m.totalParams(), m.activeParams(), m.denseParams(), m.layers(),
                    m.moeLayers(), m.hiddenSize(), m.routedExperts(), m.topK(), m.sharedExperts(),
                    m.paramsPerRoutedExpert(), m.weightBitsPerParam(), m.kvBytesPerToken(), m.kvShardedByTp(),
                    m.attentionWidth(), m.precision().name().toLowerCase(Locale.ROOT), m.tensorParallel());
        }
    }

    /** @param denseFlopsPerS by precision as the spec names it (lower case) */
    @JsonPropertyOrder({"name", "gpus", "memory_bandwidth_bytes_per_s", "dense_flops_per_s", "allreduce_latency_s",
            "allreduce_busbw_bytes_per_s"})
    record Hardware(String name, int gpus,
            @JsonProperty("memory_bandwidth_bytes_per_s") Figure memoryBandwidthBytesPerS,
            @JsonProperty("dense_flops_per_s") Map<String, Figure> denseFlopsPerS,
            @JsonProperty("allreduce_latency_s") Figure allreduceLatencyS,
            @JsonProperty("allreduce_busbw_bytes_per_s") Figure allreduceBusbwBytesPerS) {
        public Hardware {
            denseFlopsPerS = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(denseFlopsPerS));
        }

        static Hardware of(HardwareShape h) {
            Map<String, Figure> flops = new LinkedHashMap<>();
            h.denseFlops().forEach((p, f) -> flops.put(p.name().toLowerCase(Locale.ROOT), Figure.of(f)));
            return new Hardware(h.name(), h.gpuCount(), Figure.of(h.memoryBandwidth()), flops,
                    Figure.of(h.allreduceLatency()), Figure.of(h.busBandwidth()));
        }
    }

    /** A hardware figure and where it came from. */
    record Figure(double value, String source) {
        static Figure of(Sourced s) {
            return new Figure(s.value(), s.source());
        }
    }

    static RooflineJson of(Deployment deployment, PointRoofline point) {
        return switch (point.bound()) {
            case PointBound.Unbounded u -> new Unbounded(u.reason(), Model.of(deployment.model(),
                    deployment.modelSource()));
            case PointBound.Bounded b -> {
                DecodeBound d = b.decode();
                yield new Bounded(d.batch(), d.context(), d.rooflineOutputThroughput(), d.additiveOutputThroughput(),
                        d.minItlMs(), d.step().memorySeconds() * 1e3, d.step().computeSeconds() * 1e3,
                        d.step().communicationSeconds() * 1e3, d.limitingTerm().name().toLowerCase(Locale.ROOT),
                        boxed(point.outputThroughputOfRoofline()), boxed(point.itlOfBound()), point.describe(),
                        Model.of(d.model(), deployment.modelSource()), Hardware.of(d.hardware()));
            }
        };
    }

    private static Double boxed(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }

    /** Reads {@code bounded} first, then the record it names. */
    final class Reader extends StdDeserializer<RooflineJson> {
        Reader() {
            super(RooflineJson.class);
        }

        @Override
        public RooflineJson deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonNode node = context.readTree(parser);
            JsonNode bounded = node.get("bounded");
            if (bounded == null || !bounded.isBoolean()) {
                return context.reportInputMismatch(RooflineJson.class, "roofline.bounded must be true or false,"
                        + " found " + bounded);
            }
            return bounded.asBoolean() ? context.readTreeAsValue(node, Bounded.class)
                    : context.readTreeAsValue(node, Unbounded.class);
        }
    }
}
