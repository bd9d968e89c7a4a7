package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One counter as a scrape showed it: every label set of the sample name.
 *
 * @param kind       which of the cross-checked counters this is
 * @param metricName the sample name read, e.g. {@code vllm:generation_tokens_total}
 * @param series     one entry per label set, at least one
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CounterReading(CounterKind kind, String metricName, List<CounterSeries> series) {

    public CounterReading {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(metricName, "metricName");
        series = List.copyOf(Objects.requireNonNull(series, "series"));
        if (series.isEmpty()) {
            throw new IllegalArgumentException(metricName + ": a reading needs at least one series");
        }
    }

    /** The sum over every label set: what the server counted in all, whatever model, engine or reason. */
    @JsonProperty("total")
    public double total() {
        double sum = 0;
        for (CounterSeries s : series) {
            sum += s.value();
        }
        return sum;
    }
}
