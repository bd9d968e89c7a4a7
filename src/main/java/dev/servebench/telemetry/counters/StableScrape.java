package dev.servebench.telemetry.counters;

import java.util.Objects;

/**
 * The result of scraping until the counters stop moving.
 *
 * @param snapshot the last scrape taken
 * @param scrapes  how many scrapes it took, at least 1
 * @param stable   whether the last two scrapes showed the same counters; false when the limit was reached
 *                 first (something else keeps the server busy)
 */
public record StableScrape(MetricsSnapshot snapshot, int scrapes, boolean stable) {

    public StableScrape {
        Objects.requireNonNull(snapshot, "snapshot");
        if (scrapes < 1) {
            throw new IllegalArgumentException("scrapes (" + scrapes + ") must be >= 1");
        }
    }
}
