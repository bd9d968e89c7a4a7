package dev.servebench.kernels.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.metric.NumpyStats;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Adds the forks of a later JMH run of a benchmark point to that point's result in a run's {@code jmh.json}, so
 * the file stays one result per point with every fork in {@code rawData}, as JMH writes a run of several forks.
 * The figures read {@code rawData} only; JMH's summary fields are recomputed from it as JMH computes them
 * ({@code score} the mean of all iterations, {@code scoreError} the half-width of the 99.9 % Student-t
 * interval, {@code scoreConfidence}), except {@code scorePercentiles}, which follow numpy's linear method. Pure.
 */
public final class JmhMerge {

    /** JMH's own confidence level for {@code scoreError}. */
    private static final double JMH_CONFIDENCE = 0.999;

    private static final String[] PERCENTILES = {"0.0", "50.0", "90.0", "95.0", "99.0", "99.9", "99.99", "99.999",
            "99.9999", "100.0"};

    private JmhMerge() {
    }

    /**
     * Appends every fork of each result in {@code extra} to the result in {@code run} of the same benchmark and
     * parameters.
     *
     * @throws IllegalArgumentException a result of {@code extra} has no counterpart in {@code run}
     */
    public static void append(ArrayNode run, JsonNode extra) {
        for (JsonNode added : extra) {
            ObjectNode target = counterpart(run, added);
            ArrayNode raw = (ArrayNode) target.path("primaryMetric").path("rawData");
            added.path("primaryMetric").path("rawData").forEach(fork -> raw.add(fork.deepCopy()));
            target.put("forks", raw.size());
            summarize((ObjectNode) target.path("primaryMetric"), raw);
        }
    }

    private static ObjectNode counterpart(ArrayNode run, JsonNode added) {
        for (JsonNode result : run) {
            if (result.path("benchmark").equals(added.path("benchmark"))
                    && result.path("params").equals(added.path("params"))
                    && result.path("primaryMetric").path("rawData").isArray()) {
                return (ObjectNode) result;
            }
        }
        throw new IllegalArgumentException("no result of " + added.path("benchmark").asText() + " at "
                + added.path("params") + " in the run to add forks to");
    }

    private static void summarize(ObjectNode metric, ArrayNode raw) {
        List<Double> values = new ArrayList<>();
        raw.forEach(fork -> fork.forEach(v -> values.add(v.asDouble())));
        double[] all = values.stream().mapToDouble(Double::doubleValue).toArray();
        double mean = NumpyStats.mean(all);
        metric.put("score", mean);
        if (all.length > 1) {
            // ddof 1, as JMH's error: std with ddof 0 scaled by sqrt(n / (n - 1)).
            double sd = NumpyStats.std(all) * Math.sqrt(all.length / (all.length - 1.0));
            double error = TDistribution.of(all.length - 1).inverseCumulativeProbability(1 - (1 - JMH_CONFIDENCE) / 2)
                    * sd / Math.sqrt(all.length);
            metric.put("scoreError", error);
            metric.putArray("scoreConfidence").add(mean - error).add(mean + error);
        }
        ObjectNode percentiles = metric.putObject("scorePercentiles");
        for (String p : PERCENTILES) {
            percentiles.put(p, NumpyStats.percentile(all, Double.parseDouble(p)));
        }
    }
}
