package dev.servebench.spec;

/**
 * When a load point's measurement counts at all. A point that breaks one of these is invalid: its numbers
 * describe a failing server or an overloaded client, not the performance the expectations are about, so
 * its expectations are reported as not evaluated rather than passed or failed.
 *
 * @param minCompleted              successful requests / measured requests, at least (SGLang's {@code completed})
 * @param minAchievedConcurrency    mean requests in flight (the {@code concurrency} metric) / the lesser of the
 *                                  point's cap and its request count, at least; uncapped points are exempt
 * @param maxDispatchLagP99Ms       {@code p99_dispatch_lag_ms}, the client's own lateness, at most
 * @param maxUsageChunkMismatch     {@code token_count_mismatches} / successful requests, at most: beyond it the
 *                                  server's token counts and the stream disagree too often to trust either
 */
public record ValiditySpec(double minCompleted, double minAchievedConcurrency, double maxDispatchLagP99Ms,
                           double maxUsageChunkMismatch) {

    /**
     * Defaults. One failure in a hundred is tolerated (a single reset on a long run); the mean in flight may
     * fall 20 % short of the cap because with a fixed request count the last wave drains below it even for a
     * perfect client; 50 ms of client lateness at p99 already distorts TTFT at low latencies.
     */
    public static final ValiditySpec DEFAULTS = new ValiditySpec(0.99, 0.8, 50, 0.01);

    public ValiditySpec {
        requireFraction("minCompleted", minCompleted);
        requireFraction("minAchievedConcurrency", minAchievedConcurrency);
        requireFraction("maxUsageChunkMismatch", maxUsageChunkMismatch);
        if (!(maxDispatchLagP99Ms >= 0) || Double.isInfinite(maxDispatchLagP99Ms)) {
            throw new IllegalArgumentException("maxDispatchLagP99Ms (" + maxDispatchLagP99Ms + ") must be >= 0");
        }
    }

    private static void requireFraction(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " (" + value + ") must be a fraction in [0, 1]");
        }
    }
}
