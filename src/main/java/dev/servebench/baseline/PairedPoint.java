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
 */
public record PairedPoint(LoadPointKey point, List<Map<MetricId, Double>> a, List<Map<MetricId, Double>> b) {

    public PairedPoint {
        Objects.requireNonNull(point, "point");
        a = a.stream().map(Map::copyOf).toList();
        b = b.stream().map(Map::copyOf).toList();
        if (a.size() != b.size()) {
            throw new IllegalArgumentException(point + ": A has " + a.size() + " rounds, B " + b.size()
                    + "; both sides are measured in every round");
        }
    }

    public int rounds() {
        return a.size();
    }
}
