package dev.servebench.telemetry.prometheus;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One sample line of a Prometheus scrape: {@code name{labels} value [timestamp]}.
 *
 * <p>Histograms and summaries arrive as several samples ({@code _bucket}, {@code _sum}, {@code _count});
 * a counter's sample name normally ends in {@code _total}. The sample does not know its metric's TYPE:
 * the cross-check reads counters by their exact sample names, so it never needs it.
 *
 * @param name            the sample name, e.g. {@code vllm:generation_tokens_total}
 * @param labels          label name to value, in the order the line gave them; unmodifiable
 * @param value           the value; may be NaN or infinite, as the format allows
 * @param timestampMillis the sample's own timestamp in milliseconds since the epoch, when the line had one
 *                        (servers normally leave it out)
 */
public record Sample(String name, Map<String, String> labels, double value, OptionalLong timestampMillis) {

    public Sample {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name must not be empty");
        }
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(labels, "labels")));
        Objects.requireNonNull(timestampMillis, "timestampMillis");
    }

    /** A sample without timestamp. */
    public Sample(String name, Map<String, String> labels, double value) {
        this(name, labels, value, OptionalLong.empty());
    }

    /** The label's value, or null when the sample has no such label. */
    public String label(String labelName) {
        return labels.get(labelName);
    }
}
