package dev.servebench.telemetry.counters;

/**
 * A scrape of {@code /metrics} failed: unreachable, timed out, a non-200 answer, an oversized body, or text
 * that is not Prometheus format. The message is one line for the report and never contains the API key.
 */
public final class MetricsScrapeException extends Exception {

    private static final long serialVersionUID = 1L;

    MetricsScrapeException(String message) {
        super(message);
    }

    MetricsScrapeException(String message, Throwable cause) {
        super(message, cause);
    }
}
