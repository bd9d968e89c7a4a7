package dev.servebench.kernels.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import dev.servebench.results.FileFormat;
import dev.servebench.results.FormatJson;
import dev.servebench.spec.KernelMeasurements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.Optional;

/**
 * {@code kernel-measurements.json}: every kernel figure of a kernel benchmark run that a spec's {@code kernels}
 * lines can name, one per metric × measured parameter point, with the figure of every measurement
 * iteration per fork (the repeats a later gate or history can use). The runner writes it beside
 * {@code figures.json}; the perf suite reads it to judge the kernel expectations.
 * <pre>
 * {"format": "servebench-kernel-measurements/1", "run": "…", "figures": [{"metric": "moe_gflops", "unit": "GFLOP/s", "parameters": {"backend": "native", …},
 *   "value": 130.2, "forks": [[128.9, 130.2, 131.0]]}, …]}
 * </pre>
 */
public final class KernelMeasurementsJson {

    public static final String FILE_NAME = "kernel-measurements.json";

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

    /**
     * The file (format {@code servebench-kernel-measurements/1}).
     *
     * @param run one line saying which run it was (library, machine, mode)
     */
    @JsonPropertyOrder({"format", "run", "figures"})
    public record Document(String format, String run, List<Figure> figures) {
        public Document {
            format = FileFormat.KERNEL_MEASUREMENTS.accept(format);
            run = run == null ? "" : run;
            figures = List.copyOf(Objects.requireNonNull(figures, "no \"figures\" array; expected a " + FILE_NAME));
        }
    }

    /**
     * One kernel figure at one parameter point: the value from the median time, and each iteration's figure per
     * fork. A value that is not a number is written as Jackson spells it ("NaN") and read back as such.
     */
    @JsonPropertyOrder({"metric", "unit", "parameters", "value", "forks"})
    public record Figure(String metric, String unit, Map<String, String> parameters, double value,
            List<List<Double>> forks) {
        public Figure {
            String id = metric;
            KernelMetric.byId(id == null ? "" : id).orElseThrow(() -> new IllegalArgumentException(
                    "unknown kernel metric \"" + id + "\""));
            unit = unit == null ? "" : unit;
            parameters = java.util.Collections.unmodifiableMap(new TreeMap<>(parameters == null ? Map.of()
                    : parameters));
            forks = forks == null ? List.of() : forks.stream().map(List::copyOf).toList();
        }

        static Figure of(KernelMeasurements.Value value) {
            return new Figure(value.metric().id(), value.metric().unit().symbol(), value.parameters(), value.value(),
                    value.forks());
        }

        KernelMeasurements.Value measurement() {
            return new KernelMeasurements.Value(KernelMetric.byId(metric).orElseThrow(), new LinkedHashMap<>(parameters),
                    value, forks);
        }
    }

    /** @param run one line saying which run it was (library, machine, mode) */
    public static void write(Path file, String run, List<KernelMeasurements.Value> values) throws IOException {
        FormatJson.write(file, new Document(FileFormat.KERNEL_MEASUREMENTS.id(), run,
                values.stream().map(Figure::of).toList()));
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
        Document document = FormatJson.read(file, FileFormat.KERNEL_MEASUREMENTS, Document.class);
        return KernelMeasurements.of(file.toString(), document.figures().stream().map(Figure::measurement).toList());
    }
}
