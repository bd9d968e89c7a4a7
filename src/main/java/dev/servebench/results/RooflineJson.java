package dev.servebench.results;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.roofline.Deployment;
import dev.servebench.roofline.DecodeBound;
import dev.servebench.roofline.HardwareShape;
import dev.servebench.roofline.ModelShape;
import dev.servebench.roofline.PointBound;
import dev.servebench.roofline.PointRoofline;
import dev.servebench.roofline.Sourced;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * A load point's speed-of-light bound as JSON, under {@code servebench.roofline} of a summary and per point of
 * measurements.json: the inputs (model and hardware figures with their sources), batch and context, the bound
 * output tok/s, min ITL, the three times and the limiting term, and the measured fractions
 * ({@code output_throughput_of_roofline}, {@code itl_of_bound}; null when not measured). Without a bound:
 * {@code bounded: false} and the reason.
 */
public final class RooflineJson {

    public static final String KEY = "roofline";

    private RooflineJson() {
    }

    public static ObjectNode toJson(Deployment deployment, PointRoofline point) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        switch (point.bound()) {
            case PointBound.Unbounded u -> {
                node.put("bounded", false);
                node.put("reason", u.reason());
                node.set("model", model(deployment.model(), deployment.modelSource()));
            }
            case PointBound.Bounded b -> {
                DecodeBound d = b.decode();
                node.put("bounded", true);
                node.put("batch", d.batch());
                node.put("context_tokens", d.context());
                node.put("roofline_output_throughput", d.rooflineOutputThroughput());
                node.put("additive_output_throughput", d.additiveOutputThroughput());
                node.put("min_itl_ms", d.minItlMs());
                node.put("memory_ms", d.step().memorySeconds() * 1e3);
                node.put("compute_ms", d.step().computeSeconds() * 1e3);
                node.put("communication_ms", d.step().communicationSeconds() * 1e3);
                node.put("limiting_term", d.limitingTerm().name().toLowerCase(Locale.ROOT));
                fraction(node, "output_throughput_of_roofline", point.outputThroughputOfRoofline());
                fraction(node, "itl_of_bound", point.itlOfBound());
                node.put("description", point.describe());
                node.set("model", model(d.model(), deployment.modelSource()));
                node.set("hardware", hardware(d.hardware()));
            }
        }
        return node;
    }

    private static void fraction(ObjectNode node, String key, OptionalDouble value) {
        if (value.isPresent()) {
            node.put(key, value.getAsDouble());
        } else {
            node.putNull(key);
        }
    }

    private static ObjectNode model(ModelShape m, String source) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", m.name());
        node.put("source", source);
        node.put("total_params", m.totalParams());
        node.put("active_params", m.activeParams());
        node.put("dense_params", m.denseParams());
        node.put("layers", m.layers());
        node.put("moe_layers", m.moeLayers());
        node.put("hidden_size", m.hiddenSize());
        node.put("routed_experts", m.routedExperts());
        node.put("top_k", m.topK());
        node.put("shared_experts", m.sharedExperts());
        node.put("params_per_routed_expert", m.paramsPerRoutedExpert());
        node.put("weight_bits_per_param", m.weightBitsPerParam());
        node.put("kv_bytes_per_token", m.kvBytesPerToken());
        node.put("kv_split_by_tp", m.kvShardedByTp());
        node.put("attention_width", m.attentionWidth());
        node.put("precision", m.precision().name().toLowerCase(Locale.ROOT));
        node.put("tensor_parallel", m.tensorParallel());
        return node;
    }

    private static ObjectNode hardware(HardwareShape h) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", h.name());
        node.put("gpus", h.gpuCount());
        node.set("memory_bandwidth_bytes_per_s", figure(h.memoryBandwidth()));
        ObjectNode flops = node.putObject("dense_flops_per_s");
        h.denseFlops().forEach((p, f) -> flops.set(p.name().toLowerCase(Locale.ROOT), figure(f)));
        node.set("allreduce_latency_s", figure(h.allreduceLatency()));
        node.set("allreduce_busbw_bytes_per_s", figure(h.busBandwidth()));
        return node;
    }

    private static ObjectNode figure(Sourced s) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("value", s.value());
        node.put("source", s.source());
        return node;
    }
}
