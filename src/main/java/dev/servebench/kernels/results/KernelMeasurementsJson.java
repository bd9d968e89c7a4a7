package dev.servebench.kernels.results;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import dev.servebench.results.AtomicFiles;
import dev.servebench.spec.KernelMeasurements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code kernel-measurements.json}: every kernel figure of a kernel benchmark run that a spec's {@code kernels}
 * lines can name, one per metric × measured parameter point, with the figure of every measurement
 * iteration per fork (the repeats a later gate or history can use). The runner writes it beside
 * {@code figures.json}; the perf suite reads it to judge the kernel expectations.
 * <pre>
 * {"run": "…", "figures": [{"metric": "moe_gflops", "unit": "GFLOP/s", "parameters": {"backend": "native", …},
 *   "value": 130.2, "forks": [[128.9, 130.2, 131.0]]}, …]}
 * </pre>
 */
public final class KernelMeasurementsJson {

    public static final String FILE_NAME = "kernel-measurements.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private KernelMeasurementsJson() {
    }

    /**
     * Every figure of every result of a known benchmark: the value from the median time (as the tables),
     * and each iteration's own figure, per fork.
     */
    public static List<KernelMeasurements.Value> values(List<JmhResult> results) {
        List<KernelMeasurements.Value> values = new ArrayList<>();
        for (JmhResult result : results) {
            Optional<KernelBenchmark> benchmark = KernelBenchmark.byClassName(result.className());
            if (benchmark.isEmpty()) {
                continue;
            }
            for (KernelMetric metric : KernelMetric.values()) {
                if (metric.benchmark() == benchmark.get()) {
                    List<List<Double>> forks = result.forkSeconds().stream().map(fork -> fork.stream()
                            .map(seconds -> KernelFormulas.value(metric, result, seconds)).toList()).toList();
                    values.add(new KernelMeasurements.Value(metric, result.params(),
                            KernelFormulas.value(metric, result, result.medianSeconds()), forks));
                }
            }
        }
        return values;
    }

    /** @param run one line saying which run it was (library, machine, mode) */
    public static void write(Path file, String run, List<KernelMeasurements.Value> values) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("run", run);
        ArrayNode figures = root.putArray("figures");
        for (KernelMeasurements.Value value : values) {
            ObjectNode node = figures.addObject();
            node.put("metric", value.metric().id());
            node.put("unit", value.metric().unit().symbol());
            ObjectNode parameters = node.putObject("parameters");
            new java.util.TreeMap<>(value.parameters()).forEach(parameters::put);
            node.put("value", value.value());
            ArrayNode forks = node.putArray("forks");
            value.forks().forEach(fork -> fork.forEach(forks.addArray()::add));
        }
        AtomicFiles.write(file, JSON.writeValueAsString(root));
    }

    /**
     * The figures in {@code path}: the file, or {@value #FILE_NAME} in that directory. A path without one
     * gives measurements that are absent with that reason (the kernel step did not write them).
     *
     * @throws IllegalArgumentException the file is there but is not a kernel-measurements.json
     */
    public static KernelMeasurements read(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve(FILE_NAME) : path;
        if (!Files.isRegularFile(file)) {
            return KernelMeasurements.absent("no kernel results at " + file + " (the kernel benchmark runner writes "
                    + FILE_NAME + " into its --output directory)");
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + ": not JSON (" + e.getOriginalMessage() + "); expected a "
                    + FILE_NAME);
        }
        JsonNode figures = root.path("figures");
        if (!figures.isArray()) {
            throw new IllegalArgumentException(file + ": no \"figures\" array; expected a " + FILE_NAME);
        }
        List<KernelMeasurements.Value> values = new ArrayList<>();
        int index = 0;
        for (JsonNode figure : figures) {
            String where = file + ": figures[" + index++ + "]";
            String id = figure.path("metric").asText("");
            KernelMetric metric = KernelMetric.byId(id).orElseThrow(() -> new IllegalArgumentException(where
                    + ": unknown kernel metric \"" + id + "\""));
            Map<String, String> parameters = new LinkedHashMap<>();
            figure.path("parameters").properties().forEach(p -> parameters.put(p.getKey(), p.getValue().asText()));
            List<List<Double>> forks = new ArrayList<>();
            for (JsonNode fork : figure.path("forks")) {
                List<Double> iterations = new ArrayList<>();
                fork.forEach(v -> iterations.add(number(v, where)));
                forks.add(iterations);
            }
            values.add(new KernelMeasurements.Value(metric, parameters, number(figure.path("value"), where), forks));
        }
        return KernelMeasurements.of(file.toString(), values);
    }

    /** A number, or Jackson's spelling of a value that is none ("NaN", "Infinity"): judged as not a number. */
    private static double number(JsonNode node, String where) {
        if (node.isNumber()) {
            return node.asDouble();
        }
        return switch (node.asText("")) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> throw new IllegalArgumentException(where + ": " + node + " is not a number");
        };
    }
}
