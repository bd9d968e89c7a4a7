package dev.servebench.baseline;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One load point of an A/B comparison: the metrics of A and of B in each round, index = round − 1. An empty
 * map is a side that has no valid measurement in that round (it failed, or failed its validity conditions);
 * that round then pairs nothing at this point.
 *
 * @param probesA the machine speed probe's time (ms) before A's measurement in each round, NaN where none
 * @param probesB the same before B's
 */
public record PairedPoint(LoadPointKey point, List<Map<MetricId, Double>> a, List<Map<MetricId, Double>> b,
        List<Double> probesA, List<Double> probesB) {

    public PairedPoint {
        Objects.requireNonNull(point, "point");
        a = a.stream().map(Map::copyOf).toList();
        b = b.stream().map(Map::copyOf).toList();
        probesA = List.copyOf(probesA);
        probesB = List.copyOf(probesB);
        if (a.size() != b.size() || probesA.size() != a.size() || probesB.size() != a.size()) {
            throw new IllegalArgumentException(point + ": A has " + a.size() + " rounds, B " + b.size()
                    + ", probes " + probesA.size() + " and " + probesB.size()
                    + "; both sides are measured and probed in every round");
        }
    }

    /** A point without probe times (recorded before the probe existed): no round can be set aside. */
    public PairedPoint(LoadPointKey point, List<Map<MetricId, Double>> a, List<Map<MetricId, Double>> b) {
        this(point, a, b, unprobed(a.size()), unprobed(b.size()));
    }

    private static List<Double> unprobed(int rounds) {
        return java.util.Collections.nCopies(rounds, Double.NaN);
    }

    public int rounds() {
        return a.size();
    }
}
