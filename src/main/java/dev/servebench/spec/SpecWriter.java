package dev.servebench.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * Writes a spec as YAML that {@link SpecReader} reads back into an equal spec (its source aside): every
 * measuring key is written out, defaults included, so the file says everything the measurement depended on.
 * It writes what {@code servebench run --print-spec} needs: a URL or embedded target and no expectations,
 * kernel lines or deployment; anything else is refused rather than left out.
 */
public final class SpecWriter {

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    private SpecWriter() {
    }

    /**
     * @throws IllegalArgumentException the spec has expectations, kernel expectations, a deployment or a
     *                                  process or container target, which this writer does not write
     */
    public static String write(PerformanceSpec spec) {
        if (!spec.expectations().isEmpty() || !spec.kernelExpectations().isEmpty() || spec.deployment().isPresent()) {
            throw new IllegalArgumentException("spec " + spec.name() + ": only a spec without expectations, kernel"
                    + " expectations, model and hardware can be written");
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("name", spec.name());
        root.put("description", spec.description());
        root.set("target", target(spec.target()));
        root.set("workload", workload(spec.workload()));
        root.set("sweep", sweep(spec.sweep()));
        root.put("warmup", spec.warmup());
        root.put("repeats", spec.repeats());
        root.put("repeat_order", spec.repeatOrder().label());
        ObjectNode validity = root.putObject("validity");
        validity.put("min_completed", spec.validity().minCompleted());
        validity.put("min_achieved_concurrency", spec.validity().minAchievedConcurrency());
        validity.put("max_dispatch_lag_p99_ms", spec.validity().maxDispatchLagP99Ms());
        validity.put("max_usage_chunk_mismatch", spec.validity().maxUsageChunkMismatch());
        root.set("metrics", metrics(spec.metrics()));
        root.set("client", client(spec.client()));
        try {
            return YAML.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serialises", e);
        }
    }

    private static ObjectNode target(TargetSpec target) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("kind", target.kind());
        switch (target) {
            case EmbeddedTargetSpec embedded -> {
                node.put("weights", embedded.weights().label());
                node.put("slots", embedded.slots());
                node.put("threads", embedded.threads());
            }
            case UrlTargetSpec url -> node.put("url", url.url().toString());
            case ProcessTargetSpec process -> throw unsupported(process);
            case ContainerTargetSpec container -> throw unsupported(container);
        }
        node.put("backend", target.backend().cliName());
        target.model().ifPresent(model -> node.put("model", model));
        return node;
    }

    private static IllegalArgumentException unsupported(TargetSpec target) {
        return new IllegalArgumentException("a " + target.kind() + " target cannot be written; only url and embedded");
    }

    private static ObjectNode workload(WorkloadSpec workload) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("dataset", workload.dataset().name());
        switch (workload.dataset()) {
            case RandomDatasetSpec random -> {
                node.put("input_len", random.inputLen());
                node.put("output_len", random.outputLen());
                node.put("range_ratio", random.rangeRatio());
                random.tokenIds().ifPresent(ids -> {
                    node.put("token_id_base", ids.base());
                    node.put("vocab_span", ids.span());
                });
            }
            case ShareGptDatasetSpec sharegpt -> {
                node.put("path", sharegpt.path().toString());
                sharegpt.outputLen().ifPresent(len -> node.put("output_len", len));
            }
        }
        switch (workload.prompts()) {
            case PromptCount.Fixed fixed -> node.put("prompts", fixed.prompts());
            case PromptCount.Scaled scaled -> node.putObject("prompts").put("per_concurrency", scaled.perConcurrency())
                    .put("min", scaled.min()).put("max", scaled.max());
        }
        node.put("seed", workload.seed());
        node.put("prompt_format", workload.promptFormat().label());
        node.put("ignore_eos", workload.ignoreEos());
        workload.tokenizer().ifPresent(path -> node.put("tokenizer", path.toString()));
        if (!workload.extraBody().isEmpty()) {
            node.set("extra_request_body", workload.extraBody());
        }
        return node;
    }

    private static ObjectNode sweep(SweepSpec sweep) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (!sweep.concurrencies().isEmpty()) {
            ArrayNode caps = node.putArray("concurrency");
            sweep.concurrencies().forEach(caps::add);
        }
        ArrayNode rates = node.putArray("request_rate");
        for (double rate : sweep.rates()) {
            if (rate == Double.POSITIVE_INFINITY) {
                rates.add("inf");
            } else {
                rates.add(rate);
            }
        }
        node.put("burstiness", sweep.burstiness());
        sweep.maxDuration().ifPresent(d -> node.put("max_duration", duration(d)));
        return node;
    }

    private static ObjectNode metrics(MetricsSpec metrics) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("token_source", MetricsSpec.label(metrics.tokenSource()));
        node.put("input_token_source", MetricsSpec.label(metrics.inputTokenSource()));
        metrics.goodput().ifPresent(slo -> {
            ObjectNode goodput = node.putObject("goodput");
            put(goodput, "ttft_ms", slo.ttftMs());
            put(goodput, "tpot_ms", slo.tpotMs());
            put(goodput, "e2el_ms", slo.e2elMs());
        });
        return node;
    }

    private static void put(ObjectNode node, String key, OptionalDouble value) {
        value.ifPresent(v -> node.put(key, v));
    }

    private static ObjectNode client(ClientSpec client) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        client.threads().ifPresent(threads -> node.put("threads", threads));
        node.put("stall_timeout", duration(client.stallTimeout()));
        client.requestTimeout().ifPresent(d -> node.put("request_timeout", duration(d)));
        return node;
    }

    /** Units of {@link Values#duration}, largest first. */
    private record Unit(long nanos, String suffix) {
    }

    private static final Unit[] UNITS = {new Unit(3_600_000_000_000L, "h"), new Unit(60_000_000_000L, "m"),
            new Unit(1_000_000_000L, "s"), new Unit(1_000_000L, "ms")};

    /** The largest unit that states {@code d} exactly ({@code 90s}, {@code 300ms}), else fractional milliseconds. */
    static String duration(Duration d) {
        long nanos = d.toNanos();
        for (Unit unit : UNITS) {
            if (nanos % unit.nanos() == 0) {
                return nanos / unit.nanos() + unit.suffix();
            }
        }
        return BigDecimal.valueOf(nanos).movePointLeft(6).stripTrailingZeros().toPlainString() + "ms";
    }
}
