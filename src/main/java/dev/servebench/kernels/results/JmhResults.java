package dev.servebench.kernels.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads JMH's JSON result format ({@code -rf json}). */
public final class JmhResults {

    private JmhResults() {
    }

    public static List<JmhResult> read(Path file) throws IOException {
        return parse(new ObjectMapper().readTree(file.toFile()), file.toString());
    }

    public static List<JmhResult> parse(JsonNode root, String source) {
        if (!root.isArray()) {
            throw new IllegalArgumentException(source + ": expected a JSON array of JMH results");
        }
        List<JmhResult> results = new ArrayList<>();
        int index = 0;
        for (JsonNode entry : root) {
            String where = source + "[" + index++ + "]";
            String benchmark = require(entry, "benchmark", where).asText();
            Map<String, String> params = new LinkedHashMap<>();
            entry.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
            JsonNode metric = require(entry, "primaryMetric", where);
            List<List<Double>> forks = new ArrayList<>();
            for (JsonNode fork : require(metric, "rawData", where + ".primaryMetric")) {
                List<Double> iterations = new ArrayList<>();
                for (JsonNode value : fork) {
                    iterations.add(value.asDouble());
                }
                forks.add(iterations);
            }
            JsonNode error = metric.path("scoreError");
            results.add(new JmhResult(shortName(benchmark), params, require(metric, "scoreUnit", where).asText(),
                    require(metric, "score", where).asDouble(),
                    error.isNumber() ? error.asDouble() : Double.NaN, forks));
        }
        return results;
    }

    private static JsonNode require(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException(where + ": missing \"" + field + "\" in a JMH result");
        }
        return value;
    }

    /** {@code dev.servebench.kernels.bench.MoeBenchmark.forward} → {@code MoeBenchmark.forward}. */
    static String shortName(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        int type = method < 0 ? -1 : benchmark.lastIndexOf('.', method - 1);
        return benchmark.substring(type + 1);
    }
}
