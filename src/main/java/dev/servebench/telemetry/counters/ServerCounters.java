package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.servebench.telemetry.prometheus.Sample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The cross-checked counters of one scrape: generated tokens, prompt tokens and finished requests, each
 * with every label set. A counter the scrape does not contain has no reading.
 *
 * @param flavor   the server that wrote the scrape
 * @param at       when the scrape was taken
 * @param readings at most one per {@link CounterKind}, in kind order
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ServerCounters(
        ServerFlavor flavor,
        @JsonSerialize(using = ToStringSerializer.class) Instant at,
        List<CounterReading> readings) {

    public ServerCounters {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(at, "at");
        readings = List.copyOf(Objects.requireNonNull(readings, "readings"));
        Set<CounterKind> seen = new HashSet<>();
        for (CounterReading r : readings) {
            if (!seen.add(r.kind())) {
                throw new IllegalArgumentException("two readings of " + r.kind());
            }
        }
    }

    /** Detects the flavor, then reads its counters. */
    public static ServerCounters read(MetricsSnapshot snapshot) {
        return read(snapshot, ServerFlavor.detect(snapshot));
    }

    /**
     * Reads the flavor's counters: for each kind, the first of its names present in the scrape, every label
     * set of it.
     *
     * @throws IllegalArgumentException when a counter's series is not a counter value (negative, NaN,
     *                                  infinite) or one label set appears twice: such a scrape cannot be
     *                                  compared honestly
     */
    public static ServerCounters read(MetricsSnapshot snapshot, ServerFlavor flavor) {
        List<CounterReading> readings = new ArrayList<>();
        for (CounterKind kind : CounterKind.values()) {
            for (String name : flavor.counterNames(kind)) {
                List<Sample> samples = snapshot.series(name);
                if (!samples.isEmpty()) {
                    readings.add(new CounterReading(kind, name, series(name, samples)));
                    break;
                }
            }
        }
        return new ServerCounters(flavor, snapshot.at(), readings);
    }

    private static List<CounterSeries> series(String name, List<Sample> samples) {
        Set<Map<String, String>> labelSets = new HashSet<>();
        List<CounterSeries> series = new ArrayList<>(samples.size());
        for (Sample s : samples) {
            if (!labelSets.add(s.labels())) {
                throw new IllegalArgumentException(name + s.labels() + " appears twice in one scrape");
            }
            try {
                series.add(new CounterSeries(s.labels(), s.value()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
            }
        }
        return series;
    }

    /** The reading of one counter, or empty when the scrape did not contain it. */
    public Optional<CounterReading> reading(CounterKind kind) {
        return readings.stream().filter(r -> r.kind() == kind).findFirst();
    }

    /** Whether both scrapes show the same counters with the same values (used to wait for counters to settle). */
    public boolean sameValuesAs(ServerCounters other) {
        return flavor == other.flavor && readings.equals(other.readings);
    }
}
