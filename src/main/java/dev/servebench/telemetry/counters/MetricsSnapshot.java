package dev.servebench.telemetry.counters;

import dev.servebench.telemetry.prometheus.Sample;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One scrape of a server's {@code /metrics}: when it was taken and every sample in it. Raw material for
 * {@link ServerCounters#read}; not meant for reports (it holds the whole scrape).
 *
 * @param at      when the response arrived, on the scraper's clock
 * @param samples every sample line, in the order the server wrote them
 */
public record MetricsSnapshot(Instant at, List<Sample> samples) {

    public MetricsSnapshot {
        Objects.requireNonNull(at, "at");
        samples = List.copyOf(Objects.requireNonNull(samples, "samples"));
    }

    /** Whether any sample has exactly this name. */
    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /** Every sample with exactly this name: one per label set. */
    public List<Sample> series(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** Whether any sample name starts with the prefix. */
    public boolean hasPrefix(String prefix) {
        return samples.stream().anyMatch(s -> s.name().startsWith(prefix));
    }
}
