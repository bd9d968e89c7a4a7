package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One label set of a counter and its value.
 *
 * @param labels label name to value (e.g. {@code model_name}, {@code engine}, {@code finished_reason})
 * @param value  the counter's value: finite and non-negative
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CounterSeries(Map<String, String> labels, double value) {

    public CounterSeries {
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(labels, "labels")));
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException("counter value " + value + " " + labels
                    + " is not a counter's value (finite and >= 0)");
        }
    }
}
