package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Metric ids as expectations write them: exactly {@link MetricId#id()}, nothing looser. */
final class MetricNames {

    private static final List<String> IDS = Arrays.stream(MetricId.values()).map(MetricId::id).toList();

    private MetricNames() {
    }

    static Optional<MetricId> find(String name) {
        return MetricId.byId(name);
    }

    /**
     * At most four ids, in this order: the metrics SGLang or vLLM report under {@code name} (their result
     * keys are a common slip: {@code max_output_tokens_per_s} is servebench's {@code peak_output_throughput}),
     * the ids {@code name} is a common alias of ({@code tps}, {@code ttft}: {@link MetricAliases}), then ids
     * within a small edit distance ({@link Similarity}).
     */
    static List<String> suggestions(String name) {
        List<String> suggestions = new ArrayList<>();
        for (MetricId metric : MetricId.values()) {
            if (metric.sglangKey().filter(name::equals).isPresent() || metric.vllmKey().filter(name::equals).isPresent()) {
                suggestions.add(metric.id());
            }
        }
        for (String id : MetricAliases.ids(name)) {
            if (!suggestions.contains(id)) {
                suggestions.add(id);
            }
        }
        for (String id : Similarity.closest(name, IDS, 4)) {
            if (!suggestions.contains(id)) {
                suggestions.add(id);
            }
        }
        return suggestions.subList(0, Math.min(4, suggestions.size()));
    }
}
