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

    /**
     * The key {@link #toString()} printed: {@code concurrency=8}, {@code rate=4}, {@code concurrency=8,rate=4}
     * ({@code rate=inf} is accepted too).
     *
     * @throws IllegalArgumentException naming the text and what was expected
     */
    public static LoadPointKey parse(String text) {
        int concurrency = 0;
        double rate = Double.POSITIVE_INFINITY;
        for (String part : text.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("load point \"" + text + "\"; expected concurrency=N and/or rate=R");
            }
            try {
                switch (kv[0]) {
                    case "concurrency" -> concurrency = Integer.parseInt(kv[1]);
                    case "rate" -> rate = kv[1].equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(kv[1]);
                    default -> throw new IllegalArgumentException("load point \"" + text + "\"; unknown coordinate "
                            + kv[0] + " (expected concurrency=N and/or rate=R)");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("load point \"" + text + "\"; " + kv[0] + " is not a number");
            }
        }
        return new LoadPointKey(concurrency, rate);
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
