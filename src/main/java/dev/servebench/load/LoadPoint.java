package dev.servebench.load;

import java.util.Locale;

/**
 * Where on the load curve a measurement is taken.
 *
 * @param maxConcurrency cap on requests in flight; 0 = no cap
 * @param requestRate    requests per second; +inf = all due at once
 * @param burstiness     gamma shape of inter-arrival gaps (1 = Poisson); irrelevant for an infinite rate
 */
public record LoadPoint(int maxConcurrency, double requestRate, double burstiness) {
    public LoadPoint {
        if (maxConcurrency < 0) {
            throw new IllegalArgumentException("maxConcurrency (" + maxConcurrency + ") must be >= 0 (0 = no cap)");
        }
        if (!(requestRate > 0)) {
            throw new IllegalArgumentException("requestRate (" + requestRate + ") must be > 0 (+inf = all at once)");
        }
        if (!(burstiness > 0)) {
            throw new IllegalArgumentException("burstiness (" + burstiness + ") must be > 0");
        }
    }

    public boolean closedLoop() {
        return requestRate == Double.POSITIVE_INFINITY;
    }

    /** File-name-safe label, e.g. {@code concurrency-64} or {@code rate-8-concurrency-64}. */
    public String label() {
        String concurrency = maxConcurrency == 0 ? "concurrency-unlimited" : "concurrency-" + maxConcurrency;
        return closedLoop() ? concurrency : "rate-" + number(requestRate) + "-" + concurrency;
    }

    /** Human-readable, e.g. {@code concurrency=64} or {@code rate=8 req/s, concurrency=64}. */
    public String describe() {
        String concurrency = "concurrency=" + (maxConcurrency == 0 ? "unlimited" : Integer.toString(maxConcurrency));
        return closedLoop() ? concurrency
                : "rate=" + number(requestRate) + " req/s" + (burstiness == 1.0 ? "" : " burstiness=" + number(burstiness))
                + ", " + concurrency;
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%s", value);
    }
}
