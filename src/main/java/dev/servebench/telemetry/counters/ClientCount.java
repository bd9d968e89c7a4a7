package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One client-side total and where it came from.
 *
 * @param value  the total, >= 0
 * @param source where the number comes from, shown in brackets in the report line, e.g. {@code usage}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ClientCount(long value, String source) {

    public ClientCount {
        if (value < 0) {
            throw new IllegalArgumentException("value (" + value + ") must be >= 0");
        }
        Objects.requireNonNull(source, "source");
        if (source.isBlank()) {
            throw new IllegalArgumentException("source must say where the number comes from");
        }
    }
}
