package dev.servebench.spec;

import dev.servebench.load.LoadPoint;

/**
 * One point of a spec's sweep, as expectations name it. {@code toString()} is the name used in
 * expressions and test names: {@code concurrency=256}, {@code rate=8}, {@code concurrency=64,rate=8};
 * a coordinate left out means its default (no concurrency cap; rate {@code inf}, all requests due at once),
 * so every key has exactly one spelling and parsing its {@code toString()} gives it back.
 *
 * @param concurrency cap on requests in flight; 0 = no cap
 * @param rate        requests per second; +inf = all due at once
 */
public record LoadPointKey(int concurrency, double rate) {

    public LoadPointKey {
        if (concurrency < 0) {
            throw new IllegalArgumentException("concurrency (" + concurrency + ") must be >= 0 (0 = no cap)");
        }
        if (!(rate > 0)) {
            throw new IllegalArgumentException("rate (" + rate + ") must be > 0 (+inf = all at once)");
        }
    }

    public static LoadPointKey concurrency(int concurrency) {
        return new LoadPointKey(concurrency, Double.POSITIVE_INFINITY);
    }

    public boolean capped() {
        return concurrency > 0;
    }

    public boolean closedLoop() {
        return rate == Double.POSITIVE_INFINITY;
    }

    /** The driver's load point for this key. */
    public LoadPoint toLoadPoint(double burstiness) {
        return new LoadPoint(concurrency, rate, burstiness);
    }

    @Override
    public String toString() {
        if (!capped()) {
            return "rate=" + Values.plain(rate);
        }
        return closedLoop() ? "concurrency=" + concurrency : "concurrency=" + concurrency + ",rate=" + Values.plain(rate);
    }
}
