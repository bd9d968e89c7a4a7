package dev.servebench.spec;

import dev.servebench.metric.GoodputSlo;
import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** Reads {@code metrics:}: the token sources and goodput SLOs, each key on its own. */
final class MetricsReader {

    static final List<String> KEYS = List.of("token_source", "input_token_source", "goodput");
    static final List<String> GOODPUT_KEYS = List.of("ttft_ms", "tpot_ms", "e2el_ms");

    private MetricsReader() {
    }

    static MetricsSpec read(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "metrics", KEYS, errors);
        MetricsSpec defaults = MetricsSpec.DEFAULTS;
        TokenSource tokenSource = errors.read(() -> fields.optional("token_source").map(n -> {
            try {
                return MetricsSpec.tokenSource(Values.string(n));
            } catch (IllegalArgumentException e) {
                throw Values.expected(n, "usage or chunks");
            }
        }).orElse(defaults.tokenSource())).orElse(defaults.tokenSource());
        InputTokenSource inputTokenSource = errors.read(() -> fields.optional("input_token_source").map(n -> {
            try {
                return MetricsSpec.inputTokenSource(Values.string(n));
            } catch (IllegalArgumentException e) {
                throw Values.expected(n, "dataset or usage");
            }
        }).orElse(defaults.inputTokenSource())).orElse(defaults.inputTokenSource());
        Optional<GoodputSlo> goodput = errors.read(() -> fields.optional("goodput").map(n -> goodput(n, errors)))
                .flatMap(o -> o);
        return new MetricsSpec(tokenSource, inputTokenSource, goodput);
    }

    /** vLLM's objectives in milliseconds; at least one. */
    private static GoodputSlo goodput(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "metrics.goodput", GOODPUT_KEYS, errors);
        OptionalDouble ttft = slo(fields, "ttft_ms");
        OptionalDouble tpot = slo(fields, "tpot_ms");
        OptionalDouble e2el = slo(fields, "e2el_ms");
        if (ttft.isEmpty() && tpot.isEmpty() && e2el.isEmpty()) {
            throw Values.expected(node, "at least one of " + String.join(", ", GOODPUT_KEYS));
        }
        return new GoodputSlo(ttft, tpot, e2el);
    }

    private static OptionalDouble slo(Fields fields, String key) {
        return fields.optional(key).map(n -> OptionalDouble.of(Values.number(n, 0, Double.MAX_VALUE)))
                .orElse(OptionalDouble.empty());
    }
}
