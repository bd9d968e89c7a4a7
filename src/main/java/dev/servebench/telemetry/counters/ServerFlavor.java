package dev.servebench.telemetry.counters;

import java.util.Arrays;
import java.util.List;

/**
 * Which server wrote a {@code /metrics} scrape, and where each flavor keeps the counters the cross-check
 * reads. Sources (sample names as exposed; every series of the name is summed, whatever its labels):
 *
 * <ul>
 * <li>SGLang ({@code python/sglang/srt/metrics/collector.py}, TokenizerMetricsCollector; labels
 *     {@code model_name} plus any custom labels): {@code sglang:generation_tokens_total},
 *     {@code sglang:prompt_tokens_total}, {@code sglang:num_requests_total}, all three incremented once per
 *     finished request. Served only with {@code --enable-metrics}.</li>
 * <li>vLLM V1 ({@code vllm/v1/metrics/loggers.py}; labels {@code model_name}, {@code engine}) and V0
 *     ({@code vllm/engine/metrics.py}; label {@code model_name}), same names:
 *     {@code vllm:generation_tokens_total}, {@code vllm:prompt_tokens_total},
 *     {@code vllm:request_success_total} (one series per {@code finished_reason}: stop, length, abort).</li>
 * <li>servebench's embedded server ({@code target.embedded.http.ServerMetrics}, named after vLLM's):
 *     {@code servebench_generation_tokens_total}, {@code servebench_prompt_tokens_total} (BOS included,
 *     like its {@code usage.prompt_tokens}), {@code servebench_request_success_total}.</li>
 * </ul>
 */
public enum ServerFlavor {
    SGLANG("SGLang", "sglang:"),
    VLLM("vLLM", "vllm:"),
    SERVEBENCH_EMBEDDED("servebench embedded", "servebench_"),
    UNKNOWN("unknown server", "");

    private final String displayName;
    private final String prefix;

    ServerFlavor(String displayName, String prefix) {
        this.displayName = displayName;
        this.prefix = prefix;
    }

    public String displayName() {
        return displayName;
    }

    /**
     * Sample names of the counter, in order of preference (the first one present is read). One name per
     * flavor today; a list so that a future rename can be read alongside the old name.
     */
    public List<String> counterNames(CounterKind kind) {
        return switch (this) {
            case SGLANG -> switch (kind) {
                case GENERATED_TOKENS -> List.of("sglang:generation_tokens_total");
                case PROMPT_TOKENS -> List.of("sglang:prompt_tokens_total");
                case FINISHED_REQUESTS -> List.of("sglang:num_requests_total");
            };
            case VLLM -> switch (kind) {
                case GENERATED_TOKENS -> List.of("vllm:generation_tokens_total");
                case PROMPT_TOKENS -> List.of("vllm:prompt_tokens_total");
                case FINISHED_REQUESTS -> List.of("vllm:request_success_total");
            };
            case SERVEBENCH_EMBEDDED -> switch (kind) {
                case GENERATED_TOKENS -> List.of("servebench_generation_tokens_total");
                case PROMPT_TOKENS -> List.of("servebench_prompt_tokens_total");
                case FINISHED_REQUESTS -> List.of("servebench_request_success_total");
            };
            case UNKNOWN -> List.of();
        };
    }

    /**
     * The flavor whose metric prefix ({@code sglang:}, {@code vllm:}, {@code servebench_}) appears in the
     * scrape. Prefixes rather than the token counters decide, because SGLang creates its labelled counters
     * only at the first finished request while its gauges are there from the start. When several prefixes
     * appear (a gateway re-exporting two engines), the one flavor that also has its generated-token
     * counter wins; otherwise the scrape is {@link #UNKNOWN}, because summing the wrong engine's counter
     * would be worse than not checking.
     */
    public static ServerFlavor detect(MetricsSnapshot snapshot) {
        List<ServerFlavor> present = Arrays.stream(values())
                .filter(f -> f != UNKNOWN && snapshot.hasPrefix(f.prefix))
                .toList();
        if (present.size() == 1) {
            return present.getFirst();
        }
        List<ServerFlavor> withCounter = present.stream()
                .filter(f -> f.counterNames(CounterKind.GENERATED_TOKENS).stream().anyMatch(snapshot::has))
                .toList();
        return withCounter.size() == 1 ? withCounter.getFirst() : UNKNOWN;
    }
}
