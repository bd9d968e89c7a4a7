package dev.servebench.spec;

import dev.servebench.load.LoadPoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * The load points of a spec: every request rate crossed with every concurrency cap, rates outer (the order
 * {@code servebench run} uses for {@code --request-rate} and {@code --max-concurrency} lists).
 *
 * @param concurrencies caps in the order written; empty = one uncapped point per rate
 * @param rates         requests per second, +inf = all at once; never empty
 * @param burstiness    gamma shape of arrival gaps (1 = Poisson); irrelevant for an infinite rate
 * @param maxDuration   each load point's time limit ({@code --max-duration}): past it nothing more is sent,
 *                      requests in flight are cancelled and the summary says so; empty = no limit
 */
public record SweepSpec(List<Integer> concurrencies, List<Double> rates, double burstiness,
                        Optional<Duration> maxDuration) {

    /** Without a time limit. */
    public SweepSpec(List<Integer> concurrencies, List<Double> rates, double burstiness) {
        this(concurrencies, rates, burstiness, Optional.empty());
    }

    public SweepSpec {
        concurrencies = List.copyOf(concurrencies);
        rates = List.copyOf(rates);
        if (rates.isEmpty()) {
            throw new IllegalArgumentException("a sweep needs at least one rate (+inf = all at once)");
        }
        for (int c : concurrencies) {
            if (c < 1) {
                throw new IllegalArgumentException("concurrency (" + c + ") must be >= 1");
            }
        }
        for (double r : rates) {
            if (!(r > 0)) {
                throw new IllegalArgumentException("rate (" + r + ") must be > 0");
            }
        }
        if (new HashSet<>(concurrencies).size() != concurrencies.size() || new HashSet<>(rates).size() != rates.size()) {
            throw new IllegalArgumentException("a sweep lists each concurrency and rate once: " + concurrencies + " x " + rates);
        }
        if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
            throw new IllegalArgumentException("burstiness (" + burstiness + ") must be a positive number");
        }
        maxDuration.ifPresent(d -> ClientSpec.requirePositive("max duration", d));
    }

    /** Every point, rates outer, concurrencies inner. */
    public List<LoadPointKey> points() {
        List<Integer> caps = concurrencies.isEmpty() ? List.of(0) : concurrencies;
        List<LoadPointKey> points = new ArrayList<>(rates.size() * caps.size());
        for (double rate : rates) {
            for (int cap : caps) {
                points.add(new LoadPointKey(cap, rate));
            }
        }
        return points;
    }

    /** The driver's load points, in {@link #points()} order. */
    public List<LoadPoint> loadPoints() {
        return points().stream().map(p -> p.toLoadPoint(burstiness)).toList();
    }

    public boolean contains(LoadPointKey point) {
        return points().contains(point);
    }

    /** The largest concurrency cap, if any point is capped. */
    public Optional<Integer> largestConcurrency() {
        return concurrencies.stream().max(Integer::compare);
    }
}
