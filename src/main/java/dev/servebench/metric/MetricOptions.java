package dev.servebench.metric;

import java.util.Objects;
import java.util.Optional;

/**
 * Choices that change metric values.
 *
 * @param tokenSource where output_len_i comes from
 * @param goodput     vLLM goodput objectives; {@code request_goodput} is absent without them
 */
public record MetricOptions(TokenSource tokenSource, Optional<GoodputSlo> goodput) {

    public MetricOptions {
        Objects.requireNonNull(tokenSource, "tokenSource");
        Objects.requireNonNull(goodput, "goodput");
    }

    /** Server usage with chunk-count fallback, no goodput. */
    public static MetricOptions defaults() {
        return new MetricOptions(TokenSource.SERVER_USAGE, Optional.empty());
    }

    public static MetricOptions of(TokenSource tokenSource) {
        return new MetricOptions(tokenSource, Optional.empty());
    }

    public MetricOptions withGoodput(GoodputSlo slo) {
        return new MetricOptions(tokenSource, Optional.of(slo));
    }
}
