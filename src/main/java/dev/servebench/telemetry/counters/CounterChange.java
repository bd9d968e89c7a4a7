package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * What one counter did between two scrapes. In JSON, {@code status} says which case it is.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "status")
@JsonSubTypes({
        @JsonSubTypes.Type(value = CounterChange.Increased.class, name = "increased"),
        @JsonSubTypes.Type(value = CounterChange.Reset.class, name = "reset"),
        @JsonSubTypes.Type(value = CounterChange.Missing.class, name = "missing")})
public sealed interface CounterChange {

    CounterKind kind();

    /**
     * The counter grew (or stayed) in every label set.
     *
     * @param metricName         the sample name read
     * @param increase           sum over label sets of after minus before
     * @param seriesStartedAfter label sets absent from the first scrape, counted from 0 (SGLang and the
     *                           embedded server create a labelled series at its first increment)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Increased(CounterKind kind, String metricName, double increase, int seriesStartedAfter)
            implements CounterChange {
        public Increased {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(metricName, "metricName");
            if (!Double.isFinite(increase) || increase < 0) {
                throw new IllegalArgumentException("increase (" + increase + ") must be finite and >= 0");
            }
            if (seriesStartedAfter < 0) {
                throw new IllegalArgumentException("seriesStartedAfter (" + seriesStartedAfter + ") must be >= 0");
            }
        }
    }

    /**
     * A label set went down or disappeared: the server (or one of its processes) restarted between the
     * scrapes, so the difference says nothing about the measured phase. Never turned into a negative count.
     *
     * @param before total in the first scrape (0 when the counter was absent there)
     * @param after  total in the second scrape (0 when the counter vanished)
     * @param detail which label set went back, for the report
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Reset(CounterKind kind, String metricName, double before, double after, String detail)
            implements CounterChange {
        public Reset {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(metricName, "metricName");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * The second scrape has no such counter (nor had the first).
     *
     * @param detail why, for the report: which names were looked for
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Missing(CounterKind kind, String detail) implements CounterChange {
        public Missing {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(detail, "detail");
        }
    }
}
