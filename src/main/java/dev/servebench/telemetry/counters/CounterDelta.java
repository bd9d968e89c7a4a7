package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the server's counters moved between two scrapes, one {@link CounterChange} per {@link CounterKind}.
 *
 * @param flavor  the server, the same in both scrapes
 * @param from    when the first scrape was taken
 * @param to      when the second scrape was taken
 * @param changes one per kind, in kind order
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CounterDelta(
        ServerFlavor flavor,
        @JsonSerialize(using = ToStringSerializer.class) Instant from,
        @JsonSerialize(using = ToStringSerializer.class) Instant to,
        List<CounterChange> changes) {

    public CounterDelta {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        changes = List.copyOf(Objects.requireNonNull(changes, "changes"));
        for (CounterKind kind : CounterKind.values()) {
            if (changes.stream().filter(c -> c.kind() == kind).count() != 1) {
                throw new IllegalArgumentException("changes must hold exactly one entry for " + kind);
            }
        }
    }

    /**
     * The change of every counter from {@code before} to {@code after}, label set by label set, so that a
     * reset of one series is not hidden by growth of another.
     *
     * @throws IllegalArgumentException when the scrapes come from different server flavors or are out of order
     */
    public static CounterDelta between(ServerCounters before, ServerCounters after) {
        if (before.flavor() != after.flavor()) {
            throw new IllegalArgumentException("the scrapes come from different servers: " + before.flavor()
                    + " then " + after.flavor());
        }
        if (after.at().isBefore(before.at())) {
            throw new IllegalArgumentException("the second scrape (" + after.at() + ") precedes the first ("
                    + before.at() + ")");
        }
        List<CounterChange> changes = new ArrayList<>();
        for (CounterKind kind : CounterKind.values()) {
            changes.add(change(kind, before.flavor(), before.reading(kind), after.reading(kind)));
        }
        return new CounterDelta(before.flavor(), before.at(), after.at(), changes);
    }

    private static CounterChange change(CounterKind kind, ServerFlavor flavor, Optional<CounterReading> before,
                                        Optional<CounterReading> after) {
        if (after.isEmpty()) {
            if (before.isPresent()) {
                CounterReading b = before.get();
                return new CounterChange.Reset(kind, b.metricName(), b.total(), 0,
                        b.metricName() + " vanished between the scrapes");
            }
            return new CounterChange.Missing(kind, flavor == ServerFlavor.UNKNOWN
                    ? "the scrape has no SGLang, vLLM or servebench metrics"
                    : flavor.displayName() + " exposes no " + String.join(" or ", flavor.counterNames(kind)));
        }
        CounterReading a = after.get();
        if (before.isPresent() && !before.get().metricName().equals(a.metricName())) {
            throw new IllegalArgumentException(kind + " was read from " + before.get().metricName() + " then from "
                    + a.metricName());
        }
        Map<Map<String, String>, Double> earlier = new HashMap<>();
        before.ifPresent(b -> b.series().forEach(s -> earlier.put(s.labels(), s.value())));
        double increase = 0;
        int started = 0;
        for (CounterSeries s : a.series()) {
            Double was = earlier.remove(s.labels());
            if (was == null) {
                started++;
                increase += s.value();
            } else if (s.value() < was) {
                return reset(kind, before, a, s.labels() + " went from " + plain(was) + " to " + plain(s.value()));
            } else {
                increase += s.value() - was;
            }
        }
        if (!earlier.isEmpty()) {
            return reset(kind, before, a, earlier.keySet().iterator().next() + " vanished between the scrapes");
        }
        return new CounterChange.Increased(kind, a.metricName(), increase, started);
    }

    private static CounterChange reset(CounterKind kind, Optional<CounterReading> before, CounterReading after,
                                       String detail) {
        double was = before.map(CounterReading::total).orElse(0.0);
        return new CounterChange.Reset(kind, after.metricName(), was, after.total(),
                after.metricName() + detail);
    }

    private static String plain(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    /** The change of one counter. */
    public CounterChange change(CounterKind kind) {
        return changes.stream().filter(c -> c.kind() == kind).findFirst().orElseThrow();
    }
}
